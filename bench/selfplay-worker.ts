// One self-play worker thread: plays the games the main thread sends, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import { playGame, type SelfPlayGame } from '@iron-curtain/bots';
import { gameOf, rulesOfRun, type WorkerSetup } from './selfplay-deals.ts';

const setup = workerData as WorkerSetup;
const rules = rulesOfRun(setup);
parentPort?.on('message', (index: number) => {
  const { seed, aSide } = gameOf(setup, index);
  const record = playGame({
    seed,
    players: { '0': setup.a, '1': setup.b },
    seat0Side: aSide,
    rules,
  });
  // The report does not need the move list; keep messages small unless the log asks for it.
  const game: SelfPlayGame = {
    index,
    aSide,
    record: setup.keepMoves ? record : { ...record, moves: [] },
  };
  parentPort?.postMessage(game);
});
