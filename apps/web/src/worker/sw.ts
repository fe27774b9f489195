/**
 * The service worker, at the site's root so that its scope is every page; built by
 * vite-plugin-pwa (injectManifest), which writes the build's file list into __WB_MANIFEST.
 * It keeps the app shell (the build's scripts, styles, fonts, icons and index.html) so that the
 * installed app opens offline, and shows "your turn" notifications. A new deploy's worker takes
 * over at once: pages come from the server whenever it answers (./pages.ts), so no page ever
 * runs an older shell than the server's; see apps/web/README.md, "Offline".
 */
import { clientsClaim } from 'workbox-core';
import * as navigationPreload from 'workbox-navigation-preload';
import {
  addRoute,
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precache,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { NetworkOnly } from 'workbox-strategies';
import { NOT_PAGES, pageOrShell } from './pages.ts';
import { handlePushes } from './push.ts';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: { url: string; revision: string | null }[];
};

self.skipWaiting();
clientsClaim();
precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The page's request starts while the worker starts, as without a worker.
navigationPreload.enable();
const server = new NetworkOnly({ networkTimeoutSeconds: 5 });
const shell = createHandlerBoundToURL('/index.html');
// Before the precache's route, which would answer "/" from the cache.
registerRoute(
  new NavigationRoute(
    (options) =>
      pageOrShell(
        () => server.handle(options),
        () => shell(options),
      ),
    { denylist: NOT_PAGES },
  ),
);
addRoute();

handlePushes(self);
