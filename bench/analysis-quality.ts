// Is the analyser right? Two measurements, each appended game by game to a JSON-lines log
// (rerun the same command to go on after a stop; games already in the log are skipped):
//   --mode random       hard(300) against random on seeded deals, each side half the time;
//                       counts the marks per decision of each player.
//   --mode calibration  the hard-vs-hard games of a self-play log kept with --moves
//                       (--games-from bench/results/balance-hard300-vs-hard300.jsonl): the
//                       US's estimated chance after every move against who won.
// Usage: nice -n 15 npx tsx bench/analysis-quality.ts --mode random --games 200 --log <file>
//        npx tsx bench/analysis-quality.ts --report <file>   (the tables, from the log alone)
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  analyseRecord,
  type GameSpec,
  matchRecordOf,
  playGame,
  type SelfPlayGame,
  wilson,
} from '@iron-curtain/bots';
import type { Seat, Side } from '@iron-curtain/game';
import type { PlayerAnalysis } from '@iron-curtain/protocol/analysis';
import { gameOf, rulesOfRun, type WorkerSetup } from './selfplay-deals.ts';

interface LoggedGame {
  index: number;
  mode: 'random' | 'calibration';
  /** random mode: the side of the hard bot (it sits at seat 0; its side alternates). */
  hardSide?: Side;
  usWon: boolean;
  summary: Record<Seat, PlayerAnalysis>;
  usChance: number[];
  seconds: number;
}

const { values } = parseArgs({
  options: {
    mode: { type: 'string', default: 'random' },
    games: { type: 'string', default: '200' },
    iterations: { type: 'string', default: '300' },
    'hard-iterations': { type: 'string', default: '300' },
    seed: { type: 'string', default: 'analysis-quality' },
    'games-from': { type: 'string' },
    'max-minutes': { type: 'string' },
    log: { type: 'string' },
    report: { type: 'string' },
  },
});

const readLog = (file: string): LoggedGame[] =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as LoggedGame)
    : [];

function report(file: string): void {
  const games = readLog(file);
  const random = games.filter((g) => g.mode === 'random');
  if (random.length > 0) {
    const totals = { hard: blank(), random: blank() };
    for (const g of random) {
      add(totals.hard, g.summary['0']);
      add(totals.random, g.summary['1']);
    }
    const hardWins = random.filter((g) => g.usWon === (g.hardSide === 'US')).length;
    console.log(`hard(300) vs random: ${random.length} games (hard side alternating)`);
    console.log(
      '| player | decisions | inaccuracies | mistakes | blunders | marks per decision | chance lost per decision |',
    );
    console.log('|---|---|---|---|---|---|---|');
    for (const [name, t] of Object.entries(totals)) {
      const marks = t.inaccuracy + t.mistake + t.blunder;
      console.log(
        `| ${name} | ${t.decisions} | ${t.inaccuracy} | ${t.mistake} | ${t.blunder} | ${(marks / t.decisions).toFixed(3)} | ${((t.loss / t.decisions) * 100).toFixed(1)} points |`,
      );
    }
    console.log(`(hard won ${hardWins} of ${random.length})`);
  }
  const calibration = games.filter((g) => g.mode === 'calibration');
  if (calibration.length > 0) {
    const buckets = Array.from({ length: 10 }, () => ({ positions: 0, usWins: 0, sum: 0 }));
    for (const g of calibration) {
      // The last move's chance is the result itself; calibration is about the positions before.
      for (const chance of g.usChance.slice(0, -1)) {
        const b = buckets[Math.min(9, Math.floor(chance * 10))] as (typeof buckets)[number];
        b.positions += 1;
        b.sum += chance;
        if (g.usWon) b.usWins += 1;
      }
    }
    console.log(
      `\ncalibration: ${calibration.length} hard-vs-hard games, every position but the last`,
    );
    console.log('| US chance estimated | positions | mean estimate | US won | 95 % interval |');
    console.log('|---|---|---|---|---|');
    for (const [i, b] of buckets.entries()) {
      if (b.positions === 0) continue;
      const w = wilson(b.usWins, b.positions);
      console.log(
        `| ${i * 10}-${i * 10 + 10} % | ${b.positions} | ${((b.sum / b.positions) * 100).toFixed(1)} % | ${(w.share * 100).toFixed(1)} % | ${(w.low * 100).toFixed(0)}-${(w.high * 100).toFixed(0)} % |`,
      );
    }
    console.log('(positions of one game are not independent: the intervals are too narrow)');
  }
}

function blank() {
  return { decisions: 0, inaccuracy: 0, mistake: 0, blunder: 0, loss: 0 };
}
function add(t: ReturnType<typeof blank>, s: PlayerAnalysis): void {
  t.decisions += s.decisions;
  t.inaccuracy += s.inaccuracy;
  t.mistake += s.mistake;
  t.blunder += s.blunder;
  t.loss += s.averageLoss * s.decisions;
}

if (values.report) {
  report(values.report);
  process.exit(0);
}
const log = values.log;
if (!log) throw new Error('--log <file> is needed (or --report <file>)');
const iterations = Number(values.iterations);
const hardIterations = Number(values['hard-iterations']);
const games = Number(values.games);
const deadline = values['max-minutes']
  ? Date.now() + Number(values['max-minutes']) * 60_000
  : Number.POSITIVE_INFINITY;
const done = new Set(readLog(log).map((g) => g.index));

function specs(): { index: number; spec: GameSpec; game?: SelfPlayGame }[] {
  if (values.mode === 'random') {
    const setup: WorkerSetup = {
      seed: values.seed as string,
      a: { strategy: 'hard', options: { iterations: hardIterations, timeMs: 60_000 } },
      b: { strategy: 'random' },
    };
    return Array.from({ length: games }, (_, index) => {
      // The hard bot sits at seat 0, which plays the US in even games and the USSR in odd ones.
      const { seed, aSide } = gameOf(setup, index);
      return { index, spec: { seed, seat0Side: aSide, players: { '0': setup.a, '1': setup.b } } };
    });
  }
  const file = values['games-from'];
  if (!file) throw new Error('--games-from <self-play log with --moves> is needed for calibration');
  const [head, ...lines] = readFileSync(file, 'utf8').split('\n');
  const { setup } = JSON.parse(head ?? '{}') as { setup: WorkerSetup };
  return lines
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SelfPlayGame)
    .slice(0, games)
    .map((game) => {
      const { seed, aSide } = gameOf(setup, game.index);
      return {
        index: game.index,
        spec: {
          seed,
          seat0Side: aSide,
          players: { '0': setup.a, '1': setup.b },
          rules: rulesOfRun(setup),
        },
        game,
      };
    });
}

for (const { index, spec, game } of specs()) {
  if (done.has(index)) continue;
  if (Date.now() > deadline) break;
  const started = performance.now();
  const played = game?.record ?? playGame(spec);
  const record = matchRecordOf(spec, played);
  const analysis = analyseRecord(record, { seed: `${values.seed}:${index}`, iterations });
  const entry: LoggedGame = {
    index,
    mode: values.mode as LoggedGame['mode'],
    ...(values.mode === 'random' ? { hardSide: spec.seat0Side } : {}),
    usWon: played.result.winnerSide === 'US',
    summary: analysis.summary,
    usChance: analysis.usChance.map((c) => Math.round(c * 1000) / 1000),
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
  appendFileSync(log, `${JSON.stringify(entry)}\n`);
  console.log(`game ${index}: ${entry.seconds} s`);
}
report(log);
