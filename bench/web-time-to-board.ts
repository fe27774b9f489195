/**
 * Time from navigation to board shown, in headless Chromium against the local server
 * (built, embedded store). "Board shown" = the first placed card of the table is in the
 * DOM, timed in the page (performance.now(), whose origin is the navigation start).
 * Cold = a fresh browser context (empty cache); warm = the same context navigating again.
 * Goal: <= 1 s. Rerun: `npx tsx bench/web-time-to-board.ts [--runs 15] [--no-build]`.
 */

import type { Browser, BrowserContext } from 'playwright-core';
import { buildAll, launchBrowser, startServer } from '../apps/web/e2e/harness.ts';
import { boardShownAt, seatedMatch, WATCH_BOARD } from './web-board.ts';

const GOAL_MS = 1000;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 15;

async function timeToBoard(context: BrowserContext, url: string): Promise<number> {
  const page = await context.newPage();
  await page.goto(url);
  const ms = await boardShownAt(page);
  await page.close();
  return ms;
}

function summary(label: string, values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `| ${label} | ${values.length} | ${at(0.5).toFixed(0)} ms | ${at(0.9).toFixed(0)} ms | ${(sorted.at(-1) ?? 0).toFixed(0)} ms |`;
}

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) await buildAll();
  const server = await startServer();
  let browser: Browser | undefined;
  try {
    const { matchID, holdSeat } = await seatedMatch(server.url);
    browser = await launchBrowser();
    const results: Record<string, number[]> = {
      'match page, cold': [],
      'match page, warm': [],
      'spectator page, cold': [],
    };
    for (let i = 0; i < RUNS; i++) {
      const context = await browser.newContext();
      await context.addInitScript(holdSeat + WATCH_BOARD);
      results['match page, cold']?.push(
        await timeToBoard(context, `${server.url}/match/${matchID}`),
      );
      results['match page, warm']?.push(
        await timeToBoard(context, `${server.url}/match/${matchID}`),
      );
      await context.close();
      const watcher = await browser.newContext();
      await watcher.addInitScript(WATCH_BOARD);
      results['spectator page, cold']?.push(
        await timeToBoard(watcher, `${server.url}/watch/${matchID}`),
      );
      await watcher.close();
    }
    console.log('| page | runs | median | p90 | max |');
    console.log('|---|---|---|---|---|');
    for (const [label, values] of Object.entries(results)) console.log(summary(label, values));
    const worstMedian = Math.max(
      ...Object.values(results).map(
        (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? 0,
      ),
    );
    console.log(
      worstMedian <= GOAL_MS ? `goal <= ${GOAL_MS} ms met` : `goal <= ${GOAL_MS} ms NOT met`,
    );
  } finally {
    await browser?.close();
    await server.stop();
  }
}

await main();
