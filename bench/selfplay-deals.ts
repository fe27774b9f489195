// What decides one self-play game before any move: its deal's seed and who plays which side.
import type { Contestant } from '@iron-curtain/bots';
import type { Side } from '@iron-curtain/game';

export interface WorkerSetup {
  seed: string;
  a: Contestant;
  b: Contestant;
  /** Keep each game's moves in the log, so that it replays without the bots (bench/balance-stats.ts). */
  keepMoves?: true;
}

/** Game 2k and 2k+1 share one deal with the sides swapped, so both bots play every deal from both sides. */
export function gameOf(setup: WorkerSetup, index: number): { seed: string; aSide: Side } {
  return { seed: `${setup.seed}:${Math.floor(index / 2)}`, aSide: index % 2 === 0 ? 'US' : 'USSR' };
}
