/**
 * The "your turn" notifications of the service worker (./sw.ts): a pushed sentence shown tagged
 * with its match, a click that focuses the match's page or opens it.
 */

/** The lobby's match ids (protocol's matchIdSchema): nothing else becomes a path. */
const MATCH_ID = /^[A-Za-z0-9_-]{8,64}$/;
const TITLE = 'Iron Curtain';
const MAX_TEXT = 200;

/** The message of a push, `{ matchID, text }`, or null when it is not one of ours. */
function messageOf(data: { json(): unknown } | null): { matchID: string; text: string } | null {
  let message: { matchID?: unknown; text?: unknown } | undefined;
  try {
    message = data?.json() as typeof message;
  } catch {
    return null;
  }
  if (typeof message?.matchID !== 'string' || !MATCH_ID.test(message.matchID)) return null;
  if (typeof message.text !== 'string') return null;
  return { matchID: message.matchID, text: message.text.slice(0, MAX_TEXT) };
}

const matchPath = (matchID: string) => `/match/${encodeURIComponent(matchID)}`;

/** Adds the push and notification-click handlers to the worker. */
export function handlePushes(worker: ServiceWorkerGlobalScope): void {
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
    const matchID = (event.notification.data as { matchID?: unknown } | null)?.matchID;
    if (typeof matchID !== 'string' || !MATCH_ID.test(matchID)) return;
    const path = matchPath(matchID);
    event.waitUntil(
      (async () => {
        const windows = await worker.clients.matchAll({
          type: 'window',
          includeUncontrolled: true,
        });
        const open = windows.find((client) => new URL(client.url).pathname === path);
        if (open) return open.focus();
        return worker.clients.openWindow(path);
      })(),
    );
  });
}
