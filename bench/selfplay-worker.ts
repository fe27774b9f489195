// One self-play worker thread: plays the games the main thread sends, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { type Contestant, playGame, type SelfPlayGame } from '@iron-curtain/bots';
import type { Side } from '@iron-curtain/game';

export interface WorkerSetup {
  seed: string;
  a: Contestant;
  b: Contestant;
}

/** Game 2k and 2k+1 share one deal with the sides swapped, so both bots play every deal from both sides. */
export function gameOf(setup: WorkerSetup, index: number): { seed: string; aSide: Side } {
  return { seed: `${setup.seed}:${Math.floor(index / 2)}`, aSide: index % 2 === 0 ? 'US' : 'USSR' };
}

const setup = workerData as WorkerSetup;
parentPort?.on('message', (index: number) => {
  const { seed, aSide } = gameOf(setup, index);
  const record = playGame({ seed, players: { '0': setup.a, '1': setup.b }, seat0Side: aSide });
  // The move list is not needed by the report; keep messages small.
  const game: SelfPlayGame = { index, aSide, record: { ...record, moves: [] } };
  parentPort?.postMessage(game);
});
