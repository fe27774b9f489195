/**
 * Where a cold load of the match page spends its time before the board shows: each request's
 * Resource Timing (queued, sent, first byte, done), the socket's frames, the first render and the
 * first table card, in ms from navigation, for a few fresh browser contexts against the built
 * server. With --trace FILE the last load is also recorded as a Chrome performance trace (open
 * it in the browser's Performance panel). Rerun: `npx tsx bench/web-board-timeline.ts [--runs 3]
 * [--trace /tmp/board.json] [--no-build]`.
 */

import { buildAll, launchBrowser, startServer } from '../apps/web/e2e/harness.ts';
import { boardShownAt, seatedMatch } from './web-board.ts';

const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const RUNS = Number(arg('--runs') ?? 3);
const TRACE = arg('--trace');

/** Marks, in the page, the socket's frames, the first render and the first table card. */
const WATCH = `
  window.__marks = [];
  const mark = (what) => window.__marks.push([performance.now(), what]);
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(...args) {
      super(...args);
      mark('socket opening');
      this.addEventListener('open', () => mark('socket open'));
      this.addEventListener('message', (e) => mark('frame in  ' + String(e.data).slice(0, 40)));
    }
    send(data) { mark('frame out ' + String(data).slice(0, 40)); return super.send(data); }
  };
  new MutationObserver((_, observer) => {
    if (!window.__rendered && document.querySelector('#root > *')) {
      window.__rendered = true;
      mark('first render');
    }
    if (document.querySelector('section[aria-label="The table"] [data-card]')) {
      mark('board shown');
      window.__boardShownAt = performance.now();
      observer.disconnect();
    }
  }).observe(document, { childList: true, subtree: true });
`;

if (!process.argv.includes('--no-build')) await buildAll();
const server = await startServer();
const browser = await launchBrowser();
try {
  const { matchID, holdSeat } = await seatedMatch(server.url);
  for (let run = 1; run <= RUNS; run++) {
    const context = await browser.newContext();
    await context.addInitScript(holdSeat + WATCH);
    const page = await context.newPage();
    const tracing = TRACE !== undefined && run === RUNS;
    if (tracing) await browser.startTracing(page, { path: TRACE });
    await page.goto(`${server.url}/match/${matchID}`);
    await boardShownAt(page);
    if (tracing) await browser.stopTracing();
    // Read raw in the page, formatted here (a function defined inside evaluate() would not run there).
    const seen = await page.evaluate(() => ({
      page: performance.getEntriesByType('navigation').map((e) => e.toJSON()),
      requests: performance.getEntriesByType('resource').map((e) => e.toJSON()),
      marks: (window as unknown as { __marks: [number, string][] }).__marks,
      origin: location.origin,
    }));
    const ms = (t: number) => t.toFixed(0).padStart(5);
    const lines: [number, string][] = [];
    for (const e of seen.page as PerformanceNavigationTiming[]) {
      lines.push([
        0,
        `${ms(0)} page: first byte ${ms(e.responseStart)}, DOMContentLoaded ${ms(e.domContentLoadedEventEnd)}`,
      ]);
    }
    for (const e of seen.requests as PerformanceResourceTiming[]) {
      lines.push([
        e.startTime,
        `${ms(e.startTime)} ${e.name.replace(seen.origin, '')}: sent ${ms(e.requestStart)}, first byte ${ms(e.responseStart)}, done ${ms(e.responseEnd)}, ${e.transferSize} B`,
      ]);
    }
    for (const [t, what] of seen.marks) lines.push([t, `${ms(t)} ${what}`]);
    lines.sort((x, y) => x[0] - y[0]);
    console.log(`--- cold load ${run}`);
    console.log(lines.map(([, line]) => line).join('\n'));
    await context.close();
  }
  if (TRACE) console.log(`trace of the last load: ${TRACE}`);
} finally {
  await browser.close();
  await server.stop();
}
