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
  // Times to 0.01 ms: finer digits are timer noise that only lengthens the log.
  const centi = (ms: number) => Math.round(ms * 100) / 100;
  const decisionMs = {
    '0': record.decisionMs['0'].map(centi),
    '1': record.decisionMs['1'].map(centi),
  };
  const game: SelfPlayGame = {
    index,
    aSide,
    record: { ...record, decisionMs, moves: setup.keepMoves ? record.moves : [] },
  };
  parentPort?.postMessage(game);
});
