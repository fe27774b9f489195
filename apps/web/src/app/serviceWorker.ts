/// <reference types="vite/client" />

/** Where the worker is served: the site's root, so that its scope is every page. */
export const WORKER_URL = '/sw.js';

/**
 * Registers the service worker (src/worker/sw.ts: the app shell kept for offline, "your turn"
 * notifications): at load, and again by the notifications' opt-in, which needs it (registering
 * a registered worker answers its registration).
 */
export const registerServiceWorker = (): Promise<ServiceWorkerRegistration> =>
  navigator.serviceWorker.register(WORKER_URL);

/**
 * Registers the worker once the page has loaded, so that keeping the shell (the build's files,
 * fetched by the worker as it installs) never competes with the page's own first load. Not in
 * `npm run dev`, where Vite serves no built worker.
 */
export function registerServiceWorkerAtLoad(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const register = () => {
    // A browser that refuses (a private window, storage off) runs the site as without one.
    registerServiceWorker().catch(() => undefined);
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
