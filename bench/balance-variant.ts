// A controlled balance experiment: the seeded self-play games of bench/selfplay.ts (same deals,
// same bot seeds) on the default deck with reconstructed fields changed, to see how far the
// share of US wins moves. Confirmed fields cannot be changed. One thread, bounded by --max-minutes.
// Usage: npx tsx bench/balance-variant.ts --set region:middle-east.bonus=1 [--set ...]
//          [--level medium] [--games 2000] [--seed bench-balance] [--max-minutes 9]
import { parseArgs } from 'node:util';
import { chooseMove, createRng, isStrategy, type Strategy, wilson } from '@iron-curtain/bots';
import {
  applyMove,
  type CardId,
  createState,
  parseSetupData,
  rulesOf,
  type Seat,
  type Side,
  viewFor,
} from '@iron-curtain/game';
// The default deck as its file holds it (the loaded deck keeps no file form to edit).
import reconstructed from '../packages/game/src/deck/reconstructed.json' with { type: 'json' };
import { gameOf } from './selfplay-deals.ts';

const HELP = `npx tsx bench/balance-variant.ts --set <card|region>:<id>.<field>=<JSON> [...]
  --level <level>     both players (default medium)
  --games <n>         even (default 2000); the games of selfplay.ts --seed <seed>
  --seed <text>       default bench-balance
  --max-minutes <m>   stop after m minutes and report the whole deals played (default 9)`;

function fail(message: string): never {
  console.error(`balance-variant: ${message}\n\n${HELP}`);
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    set: { type: 'string', multiple: true, default: [] },
    level: { type: 'string', default: 'medium' },
    games: { type: 'string', default: '2000' },
    seed: { type: 'string', default: 'bench-balance' },
    'max-minutes': { type: 'string', default: '9' },
  },
});
const level: Strategy = isStrategy(values.level)
  ? values.level
  : fail(`--level: unknown level '${values.level}'`);
const games = Number(values.games);
if (!Number.isSafeInteger(games) || games <= 0 || games % 2 !== 0) fail('--games must be even');
const maxMinutes = Number(values['max-minutes']);
if (!(maxMinutes > 0)) fail('--max-minutes must be a positive number');

type Entry = { id: string; status: Record<string, string> } & Record<string, unknown>;

/** The default deck with each --set applied; a confirmed field is refused. */
function variantDeck(changes: string[]): unknown {
  const deck = structuredClone(reconstructed) as unknown as { regions: Entry[]; cards: Entry[] };
  for (const change of changes) {
    const m = /^(card|region):([a-z-]+)\.([a-z]+)=(.+)$/.exec(change);
    if (!m) fail(`--set '${change}': expected <card|region>:<id>.<field>=<JSON>`);
    const [, kind, id, field, json] = m as unknown as [string, string, string, string, string];
    const entry = (kind === 'card' ? deck.cards : deck.regions).find((e) => e.id === id);
    if (!entry) fail(`--set '${change}': no ${kind} '${id}' in the default deck`);
    const status = entry.status[field];
    if (status === undefined) fail(`--set '${change}': ${kind} field '${field}' has no status`);
    if (status === 'confirmed') fail(`--set '${change}': ${id}.${field} is confirmed`);
    try {
      entry[field] = JSON.parse(json);
    } catch {
      fail(`--set '${change}': the value is not JSON`);
    }
  }
  return deck;
}

const deck = variantDeck(values.set);
// The deck is validated once here, so that a bad --set stops before any game.
const sidesFor = (aSide: Side) =>
  ({ '0': aSide, '1': aSide === 'US' ? 'USSR' : 'US' }) as Record<Seat, Side>;
parseSetupData({ sides: sidesFor('US'), deck });

/** One game as playGame (packages/bots) plays it, on the variant deck. */
function playOne(index: number): { winner: Side; track: boolean } {
  const setup = { seed: values.seed, a: { strategy: level }, b: { strategy: level } };
  const { seed, aSide } = gameOf(setup, index);
  const rng = createRng(`deal:${seed}`);
  const parsed = parseSetupData({ sides: sidesFor(aSide), deck });
  const rules = rulesOf(parsed);
  const state = createState(parsed, (cards: CardId[]) => rng.shuffle([...cards]));
  let moves = 0;
  while (!state.result && state.decision) {
    const seat = state.decision.seat;
    const move = chooseMove(rules, viewFor(state, seat), seat, level, {
      seed: `${seed}:${seat}:${moves}`,
    });
    const outcome = applyMove(rules, state, seat, move.move, move.args);
    if (!outcome.ok) throw new Error(`game ${index}: the engine refused ${move.move}`);
    moves += 1;
  }
  if (!state.result) throw new Error(`game ${index} stopped without a result`);
  return { winner: state.result.winnerSide, track: state.result.reason === 'track' };
}

const started = performance.now();
let played = 0;
let usWins = 0;
let trackEnds = 0;
for (let deal = 0; deal < games / 2; deal++) {
  if (performance.now() - started > maxMinutes * 60_000) break;
  for (const index of [2 * deal, 2 * deal + 1]) {
    const { winner, track } = playOne(index);
    played += 1;
    if (winner === 'US') usWins += 1;
    if (track) trackEnds += 1;
  }
}
const share = wilson(usWins, played);
const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
console.log(
  `${level} vs ${level}, seed ${values.seed}, deck changes: ${values.set.join(', ') || 'none'}`,
);
console.log(
  `${played} games in ${((performance.now() - started) / 1000).toFixed(0)} s: US wins ${usWins} = ${pct(share.share)} [${pct(share.low)}, ${pct(share.high)}]; ended on the track: ${trackEnds}`,
);
