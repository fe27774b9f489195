import type { RestartNotice } from '@iron-curtain/protocol';
import type { Socket } from 'socket.io-client';

/** The shortest time between two attempts while a restarting server is away, ms. */
const RETRY_MIN_MS = 250;
/** No notice keeps a client away longer than this, ms. */
const LONGEST_MS = 30_000;

/**
 * The notice as sent, or "at once" for one that is not (an older server sends no payload).
 * Read by hand: the page's first script does without zod.
 */
export function readRestartNotice(payload: unknown): RestartNotice {
  const field = (name: keyof RestartNotice) => {
    const value = (payload as Record<string, unknown> | null)?.[name];
    return typeof value === 'number' && value >= 0 ? Math.min(value, LONGEST_MS) : 0;
  };
  return typeof payload === 'object'
    ? { backInMs: field('backInMs'), spreadMs: field('spreadMs') }
    : { backInMs: 0, spreadMs: 0 };
}

/**
 * Takes a socket away from a server that says it is restarting and brings it back when the
 * notice says (RestartNotice): `backInMs` plus a random share of `spreadMs`, so that a crowd
 * comes back spread over the time its new server needs to take it in, not in one instant;
 * then, until connected, every `spreadMs` (at least 250 ms, socket.io's jitter of 0.5 around
 * it) instead of socket.io's doubling backoff, which kept a crowd away up to 4 s after the new
 * server listened. Once connected, the socket's own backoff is back. Returns what cancels the
 * return (the page closed the socket meanwhile).
 */
export function returnAfterRestart(
  socket: Socket,
  payload: unknown,
  random: () => number = Math.random,
): () => void {
  const notice = readRestartNotice(payload);
  const manager = socket.io;
  const delay = manager.reconnectionDelay();
  const delayMax = manager.reconnectionDelayMax();
  const cadence = Math.max(notice.spreadMs, RETRY_MIN_MS);
  manager.reconnectionDelay(cadence);
  manager.reconnectionDelayMax(cadence);
  const restore = () => {
    manager.reconnectionDelay(delay);
    manager.reconnectionDelayMax(delayMax);
  };
  socket.disconnect();
  socket.once('connect', restore);
  const timer = setTimeout(() => socket.connect(), notice.backInMs + random() * notice.spreadMs);
  return () => {
    clearTimeout(timer);
    socket.off('connect', restore);
    restore();
  };
}
