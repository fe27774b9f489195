import type { HeldSeat, PushLanguage } from '@iron-curtain/protocol';
import { registerServiceWorker, WORKER_URL } from '../../app/serviceWorker.ts';
import { lobby } from '../../lobby/api.ts';

/** The localStorage key remembering that this browser asked for a match's notifications. */
const storageKey = (matchID: string) => `iron-curtain:push:${matchID}`;

/** What this browser can do: nothing (no Web Push), ask, or nothing more (the reader said no). */
export type PushAbility = 'unsupported' | 'ask' | 'granted' | 'denied';

export function pushAbility(): PushAbility {
  if (
    typeof navigator === 'undefined' ||
    !('serviceWorker' in navigator) ||
    typeof window === 'undefined' ||
    !('PushManager' in window) ||
    !('Notification' in window)
  ) {
    return 'unsupported';
  }
  const permission = Notification.permission;
  return permission === 'default' ? 'ask' : permission;
}

/** Whether this browser asked for notifications of the match (and has not turned them off). */
export function pushWanted(matchID: string): boolean {
  try {
    return localStorage.getItem(storageKey(matchID)) !== null;
  } catch {
    return false;
  }
}

function remember(matchID: string, wanted: boolean): void {
  try {
    if (wanted) localStorage.setItem(storageKey(matchID), '1');
    else localStorage.removeItem(storageKey(matchID));
  } catch {
    // Not remembered: the server still sends; the control shows the offer again.
  }
}

/** The key as bytes, as PushManager.subscribe takes it. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const text = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

const sameBytes = (a: ArrayBuffer | null, b: Uint8Array): boolean =>
  a !== null && a.byteLength === b.length && new Uint8Array(a).every((x, i) => x === b[i]);

/**
 * Thrown when the reader did not allow notifications: `denied`, blocked (now or in the browser's
 * settings, where the browser asks no more), or `default`, the question closed unanswered.
 */
export class PushDenied extends Error {
  override name = 'PushDenied';
  constructor(readonly permission: 'denied' | 'default') {
    super(`notifications not allowed (${permission})`);
  }
}

/**
 * Asks permission (the browser's own prompt; call it from a click), registers the worker,
 * subscribes this browser with the server's key and registers each seat with the server, in
 * the reader's language. A browser subscribed with an older key subscribes afresh.
 */
export async function enablePush(seats: HeldSeat[], language: PushLanguage): Promise<void> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushDenied(permission);
  await registerServiceWorker();
  const registration = await navigator.serviceWorker.ready;
  const key = keyBytes((await lobby.pushKey()).publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameBytes(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  const json = subscription.toJSON();
  const browser = {
    endpoint: json.endpoint ?? subscription.endpoint,
    keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' },
  };
  for (const seat of seats) {
    await lobby.subscribePush({ ...seat, language, subscription: browser });
    remember(seat.matchID, true);
  }
}

/** Stops the notifications of these seats on this browser (its other matches keep theirs). */
export async function disablePush(seats: HeldSeat[]): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration(WORKER_URL);
  const subscription = await registration?.pushManager.getSubscription();
  for (const seat of seats) {
    if (subscription) await lobby.unsubscribePush({ ...seat, endpoint: subscription.endpoint });
    remember(seat.matchID, false);
  }
}
