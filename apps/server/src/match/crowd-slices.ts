import { setImmediate as nextTurn } from 'node:timers/promises';
import type { GameNamespace } from '../edge/game-sockets.ts';

/**
 * Sockets sent a frame before the server turns to other work: a big crowd's frames (a move's
 * fan-out, the count, a batch of syncs and chat histories) go out a slice a turn of the event
 * loop, so another match's move read meanwhile waits one slice at most. 250 a slice held a turn
 * for 14-23 ms on a 2-core machine, longer than a whole move's round trip without a crowd.
 */
export const CROWD_SLICE = 50;

export type SendTo = (to: ReturnType<GameNamespace['to']>) => void;

/**
 * Sends one frame to many sockets, CROWD_SLICE at a time, in order, yielding to the event
 * loop before each slice (`now`: after the first, which goes at once).
 */
export async function inSlices(
  nsp: GameNamespace,
  ids: string[],
  send: SendTo,
  { now = false } = {},
): Promise<void> {
  for (let i = 0; i < ids.length; i += CROWD_SLICE) {
    if (i > 0 || !now) await nextTurn();
    send(nsp.to(ids.slice(i, i + CROWD_SLICE)));
  }
}
