// @ts-check
/// <reference lib="webworker" />
// The service worker of "your turn" notifications. One classic script at the site's root, so
// that its scope is every page; served like the pages (same Content-Security-Policy) and kept
// out of the bundle: it imports nothing and handles no fetch, so the site works as before.

const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

/** The lobby's match ids (protocol's matchIdSchema): nothing else becomes a path. */
const MATCH_ID = /^[A-Za-z0-9_-]{8,64}$/;
const TITLE = 'Iron Curtain';
const MAX_TEXT = 200;

/**
 * The message of a push, `{ matchID, text }`, or null when it is not one of ours.
 * @param {{ json(): unknown } | null} data
 * @returns {{ matchID: string, text: string } | null}
 */
function messageOf(data) {
  let message;
  try {
    message = /** @type {{ matchID?: unknown, text?: unknown }} */ (data?.json());
  } catch {
    return null;
  }
  if (typeof message?.matchID !== 'string' || !MATCH_ID.test(message.matchID)) return null;
  if (typeof message.text !== 'string') return null;
  return { matchID: message.matchID, text: message.text.slice(0, MAX_TEXT) };
}

/** @param {string} matchID */
const matchPath = (matchID) => `/match/${encodeURIComponent(matchID)}`;

worker.addEventListener('push', (event) => {
  const message = messageOf(event.data);
  if (!message) return;
  event.waitUntil(
    worker.registration.showNotification(TITLE, {
      body: message.text,
      // One notification per match: a newer one replaces the older.
      tag: message.matchID,
      icon: '/icon-192.png',
      data: { matchID: message.matchID },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const matchID = /** @type {{ matchID?: unknown } | null} */ (event.notification.data)?.matchID;
  if (typeof matchID !== 'string' || !MATCH_ID.test(matchID)) return;
  const path = matchPath(matchID);
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).pathname === path);
      if (open) return open.focus();
      return worker.clients.openWindow(path);
    })(),
  );
});
