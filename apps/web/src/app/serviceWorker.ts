/// <reference types="vite/client" />

/** Where the worker is served: the site's root, so that its scope is every page. */
export const WORKER_URL = '/sw.js';

/** The longest the registration waits for the page to be idle after its load. */
const IDLE_WAIT_MS = 10_000;
/** The longest it waits for a live table's board (a match that never shows one still gets it). */
const TABLE_WAIT_MS = 30_000;

/**
 * Registers the service worker (src/worker/sw.ts: the app shell kept for offline, "your turn"
 * notifications): at load, and again by the notifications' opt-in, which needs it (registering
 * a registered worker answers its registration).
 */
export const registerServiceWorker = (): Promise<ServiceWorkerRegistration> =>
  navigator.serviceWorker.register(WORKER_URL);

let tableShown: () => void = () => undefined;
const tableShownYet = new Promise<void>((resolve) => {
  tableShown = resolve;
});

/** Called by a live table once its board shows: what a match page's load waits for. */
export const liveTableShown = (): void => tableShown();

/**
 * Registers the worker once the page has loaded and is idle, so that keeping the shell (the
 * build's files, about 1.1 MB, fetched by the worker as it installs) never competes with the
 * page's own first load; on a live table's page, once its board shows (measured: registering
 * at load held a cold match page's board back by about 200 ms, bench/results.md). Not in
 * `npm run dev`, where Vite serves no built worker.
 */
export function registerServiceWorkerAtLoad({ afterTable }: { afterTable: boolean }): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    // A browser that refuses (a private window, storage off) runs the site as without one.
    registerServiceWorker().catch(() => undefined);
  };
  const whenIdle = () =>
    'requestIdleCallback' in window
      ? requestIdleCallback(register, { timeout: IDLE_WAIT_MS })
      : register();
  const loaded = new Promise<void>((resolve) => {
    if (document.readyState === 'complete') resolve();
    else window.addEventListener('load', () => resolve(), { once: true });
  });
  const table = afterTable
    ? Promise.race([tableShownYet, new Promise((resolve) => setTimeout(resolve, TABLE_WAIT_MS))])
    : null;
  void Promise.all([loaded, table]).then(whenIdle);
}
