// The hard bot's heaviest decision: the first card of round 1 (the most options, the longest
// playouts), searched with the full iteration budget and no time cap. Usage:
// npx tsx bench/selfplay-timing.ts [--positions 20]
import { parseArgs } from 'node:util';
import { chooseMove, createRng, HARD_ITERATIONS, ismcts, newGame } from '@iron-curtain/bots';
import { applyMove, viewFor } from '@iron-curtain/game';

const { values } = parseArgs({ options: { positions: { type: 'string', default: '20' } } });
const positions = Number(values.positions);
if (!Number.isSafeInteger(positions) || positions <= 0) {
  console.error('--positions must be a positive whole number');
  process.exit(2);
}

const times: number[] = [];
let iterations = 0;
// Position -1 warms up the JIT, as a running server is warm; it is not timed.
for (let i = -1; i < positions; i++) {
  const { rules, state } = newGame(`timing:${i}`, 'US');
  const chooser = state.decision?.seat ?? '1';
  const first = chooseMove(rules, viewFor(state, chooser), chooser, 'medium', { seed: i });
  applyMove(rules, state, chooser, first.move, first.args);
  const seat = state.decision?.seat ?? '0';
  const started = performance.now();
  const report = ismcts(
    rules,
    viewFor(state, seat),
    seat,
    { iterations: HARD_ITERATIONS, timeMs: Number.POSITIVE_INFINITY },
    createRng(i),
  );
  if (i < 0) continue;
  times.push(performance.now() - started);
  iterations += report.iterations;
}
times.sort((a, b) => a - b);
const at = (q: number) =>
  (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(0);
const total = times.reduce((s, t) => s + t, 0);
console.log(
  `${positions} first-card decisions, ${HARD_ITERATIONS} iterations each: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms; ${((iterations / total) * 1000).toFixed(0)} iterations/s`,
);
