/**
 * Random full-game playouts through the pure engine (legalMoves + applyMove, no
 * network, no boardgame.io): what bots pay per simulated game.
 *
 *   npm run bench:playout [-- --playouts 20000 --seed 1]
 */
import { parseArgs } from 'node:util';
import { createRng } from '@iron-curtain/bots';
import {
  applyMove,
  createState,
  DEFAULT_DECK,
  indexDeck,
  legalMoves,
  parseSetupData,
  rulesOf,
  type Seat,
} from '@iron-curtain/game';

const { values } = parseArgs({
  options: {
    playouts: { type: 'string', default: '20000' },
    seed: { type: 'string', default: '1' },
  },
});
const playouts = Number(values.playouts);
const rng = createRng(values.seed);
const strategy = indexDeck(DEFAULT_DECK).strategyCards;

/** One game from a random deal to its end with uniformly random legal moves; returns its move count. */
function playout(): number {
  const setup = parseSetupData({ sides: { '0': 'US', '1': 'USSR' } });
  const rules = rulesOf(setup);
  const state = createState(setup, (cards) => rng.shuffle(cards));
  let moves = 0;
  while (state.decision) {
    const seat = state.decision.seat as Seat;
    const { move, args } = rng.pick(legalMoves(rules, state, seat));
    const outcome = applyMove(rules, state, seat, move, args);
    if (!outcome.ok) throw new Error(`legal move refused: ${outcome.error}`);
    moves++;
  }
  return moves;
}

for (let i = 0; i < 2000; i++) playout();

const times: number[] = [];
let totalMoves = 0;
const started = performance.now();
for (let i = 0; i < playouts; i++) {
  const t0 = performance.now();
  totalMoves += playout();
  times.push(performance.now() - t0);
}
const elapsed = (performance.now() - started) / 1000;
times.sort((a, b) => a - b);
const at = (q: number) =>
  (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(3);

console.log(
  `deck ${DEFAULT_DECK.id}, ${strategy.length} strategy cards, ${playouts} playouts, seed ${values.seed}`,
);
console.log(`median ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms per playout`);
console.log(
  `${(playouts / elapsed).toFixed(0)} playouts/s, ${(totalMoves / playouts).toFixed(1)} moves per game`,
);
