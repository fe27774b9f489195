// Self-play harness: N seeded games between two bots on worker threads, with win rates and
// 95 % intervals per player and side. Usage: npx tsx bench/selfplay.ts --help
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import {
  type Contestant,
  contestantLabel,
  type Interval,
  isStrategy,
  type PlayerSummary,
  type SelfPlayGame,
  STRATEGIES,
  summariseSelfPlay,
} from '@iron-curtain/bots';
import { BUILT_IN_DECKS, DEFAULT_DECK, parseSetupData } from '@iron-curtain/game';
import { rulesOfRun, UNVERSIONED_DECK, type WorkerSetup } from './selfplay-deals.ts';

const HELP = `npx tsx bench/selfplay.ts [options]
  --a <level>          player A: ${STRATEGIES.join(', ')} (default hard)
  --b <level>          player B (default random)
  --a-iterations <n>   hard search iterations for A (default: the hard level's)
  --b-iterations <n>   same for B
  --time-ms <n>        wall-clock cap per hard decision (default: the hard level's)
  --games <n>          games, even: each deal is played twice with the sides swapped (default 20)
  --from <n>           start at game n (even), to finish a run stopped by --max-minutes
  --seed <text>        seed of the deals and the bots (default 1)
  --workers <n>        worker threads (default: available cores)
  --max-minutes <m>    stop handing out games after m minutes and report what finished
  --log <file>         append each finished game to this file (JSON lines) and skip the games
                       it already holds: rerun the same command to go on after a stop or a kill
  --moves              keep each game's moves in the --log, to replay it without the bots
                       (npx tsx bench/balance-stats.ts <file>)
  --json <file>        also write the summary as JSON
  --deck <version>     the built-in deck version played: ${BUILT_IN_DECKS.map((d) => d.version).join(', ')}
                       (default ${DEFAULT_DECK.version}, the default deck)
  --set <change>       a balance experiment: a reconstructed field of the deck changed,
                       <card|region>:<id>.<field>=<JSON>, e.g. region:middle-east.bonus=3
                       (repeatable; a confirmed field is refused)
  --no-aftermath-cap   the German edition: the aftermath is not capped at 3 IP
  --polish-scoring     the Polish edition's order of final scoring`;

function fail(message: string): never {
  console.error(`selfplay: ${message}\n\n${HELP}`);
  process.exit(2);
}

function positiveInt(
  name: string,
  value: string | undefined,
  fallback?: number,
): number | undefined {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) fail(`--${name} must be a positive whole number`);
  return n;
}

function contestant(name: string, level: string, iterations?: number, timeMs?: number): Contestant {
  if (!isStrategy(level)) fail(`--${name} must be one of ${STRATEGIES.join(', ')}`);
  const options: Contestant['options'] = {};
  if (iterations !== undefined) options.iterations = iterations;
  if (timeMs !== undefined) options.timeMs = timeMs;
  return { strategy: level, options };
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        a: { type: 'string', default: 'hard' },
        b: { type: 'string', default: 'random' },
        'a-iterations': { type: 'string' },
        'b-iterations': { type: 'string' },
        'time-ms': { type: 'string' },
        games: { type: 'string', default: '20' },
        from: { type: 'string', default: '0' },
        seed: { type: 'string', default: '1' },
        workers: { type: 'string' },
        'max-minutes': { type: 'string' },
        log: { type: 'string' },
        json: { type: 'string' },
        moves: { type: 'boolean', default: false },
        deck: { type: 'string', default: DEFAULT_DECK.version },
        set: { type: 'string', multiple: true, default: [] },
        'no-aftermath-cap': { type: 'boolean', default: false },
        'polish-scoring': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
  } catch (error) {
    return fail((error as Error).message);
  }
})();
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const games = positiveInt('games', values.games) as number;
if (games % 2 !== 0) fail('--games must be even, so that both sides are played equally');
const from = Number(values.from);
if (!Number.isSafeInteger(from) || from < 0 || from % 2 !== 0 || from >= games)
  fail('--from must be an even game number below --games');
const maxWorkers = positiveInt('workers', values.workers, availableParallelism()) as number;
const timeMs = positiveInt('time-ms', values['time-ms']);
const aIterations = positiveInt('a-iterations', values['a-iterations']);
const bIterations = positiveInt('b-iterations', values['b-iterations']);
const maxMinutes = values['max-minutes'] === undefined ? Infinity : Number(values['max-minutes']);
if (!(maxMinutes > 0)) fail('--max-minutes must be a positive number');
if (values.moves && !values.log) fail('--moves keeps the moves in the --log: name one');
const setup: WorkerSetup = {
  seed: values.seed,
  a: contestant('a', values.a, aIterations, timeMs),
  b: contestant('b', values.b, bIterations, timeMs),
  // Absent rather than false, so that logs written before the option keep their header.
  ...(values.moves ? { keepMoves: true as const } : {}),
  ...(values.set.length > 0 ? { deckChanges: values.set } : {}),
  ...(values['no-aftermath-cap'] || values['polish-scoring']
    ? {
        variants: {
          ...(values['no-aftermath-cap'] ? { aftermathCap: null } : {}),
          ...(values['polish-scoring'] ? { finalScoringOrder: 'polish' as const } : {}),
        },
      }
    : {}),
  deckVersion: values.deck,
};
// A bad change or version stops the run before any game.
try {
  parseSetupData({ ...rulesOfRun(setup), sides: { '0': 'US', '1': 'USSR' } });
} catch (error) {
  fail((error as Error).message);
}
const labels = {
  a: `A ${contestantLabel(setup.a.strategy, aIterations)}`,
  b: `B ${contestantLabel(setup.b.strategy, bIterations)}`,
};

// Worker threads do not inherit tsx's loader hooks: boot each one through tsx's import API.
const WORKER_BOOT = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) =>
  tsx.tsImport(${JSON.stringify(new URL('./selfplay-worker.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}));`;

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
const interval = (i: Interval) => `${pct(i.share)} [${pct(i.low)}, ${pct(i.high)}]`;
const ms = (x: number) => `${x.toFixed(1)}`;
const playerRow = (p: PlayerSummary) =>
  `| ${p.label} | ${p.wins}/${p.games} | ${interval(p.interval)} | ${interval(p.bySide.US.interval)} | ${interval(p.bySide.USSR.interval)} | ${ms(p.decisionMs.mean)} | ${ms(p.decisionMs.p95)} | ${ms(p.decisionMs.max)} |`;

/**
 * The games of this run that `file` already holds. Its first line names the run's setup,
 * so that games of another run are never mixed in; a line cut short by a kill is dropped.
 */
function readLog(file: string): SelfPlayGame[] {
  const header = JSON.stringify({ setup });
  // A log written before deck versions names none: it played the first.
  const { deckVersion, ...unversioned } = setup;
  const sameRun = (line: string | undefined) =>
    line === header ||
    (deckVersion === UNVERSIONED_DECK && line === JSON.stringify({ setup: unversioned }));
  if (!existsSync(file)) {
    writeFileSync(file, `${header}\n`);
    return [];
  }
  const lines = readFileSync(file, 'utf8').split('\n');
  if (!sameRun(lines[0]))
    fail(`--log ${file} holds games of another run (${lines[0]}); name a new file`);
  const games: SelfPlayGame[] = [];
  for (const line of lines.slice(1)) {
    try {
      games.push(JSON.parse(line) as SelfPlayGame);
    } catch {
      break;
    }
  }
  writeFileSync(file, `${[header, ...games.map((g) => JSON.stringify(g))].join('\n')}\n`);
  return games;
}

async function main(): Promise<void> {
  const started = performance.now();
  const deadline = started + maxMinutes * 60_000;
  const inRange = (g: SelfPlayGame) => g.index >= from && g.index < games;
  const logged = values.log ? readLog(values.log).filter(inRange) : [];
  const done = new Set(logged.map((g) => g.index));
  const todo = Array.from({ length: games - from }, (_, i) => from + i).filter((i) => !done.has(i));
  const workers = Math.min(todo.length, maxWorkers);
  const finished: SelfPlayGame[] = [];
  const toPlay = todo.length;
  const progressEvery = Math.max(1, Math.floor(toPlay / 20));
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const worker = new Worker(WORKER_BOOT, { eval: true, workerData: setup });
      try {
        for (let index = todo.shift(); index !== undefined; index = todo.shift()) {
          const game = await new Promise<SelfPlayGame>((resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(index);
          });
          worker.removeAllListeners('error');
          finished.push(game);
          if (values.log) appendFileSync(values.log, `${JSON.stringify(game)}\n`);
          if (finished.length % progressEvery === 0)
            console.error(
              `${finished.length}/${toPlay} games, ${((performance.now() - started) / 1000).toFixed(0)} s`,
            );
          if (performance.now() >= deadline) break;
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const all = [...logged, ...finished];
  // A deal counts only with both its games, so that both sides stay played equally.
  const played = new Set(all.map((g) => g.index));
  const paired = all.filter((g) => played.has(g.index ^ 1)).sort((x, y) => x.index - y.index);
  const summary = summariseSelfPlay(labels, paired);
  const cpu = cpus()[0]?.model ?? 'unknown cpu';
  console.log(`\nself-play: ${labels.a} vs ${labels.b}, seed ${setup.seed}`);
  console.log(
    `rules: ${[`deck version ${setup.deckVersion}`, ...(setup.deckChanges ?? []), ...(setup.variants ? [JSON.stringify(setup.variants)] : [])].join(', ')}`,
  );
  console.log(
    `${finished.length} games played in ${seconds.toFixed(0)} s (${(finished.length / seconds).toFixed(2)} games/s, ${workers} workers, ${cpu})${logged.length > 0 ? `, ${logged.length} more from ${values.log}` : ''}`,
  );
  if (summary.games < games - from)
    console.log(
      `stopped early: ${summary.games} of games ${from} to ${games - 1} counted, in whole deals`,
    );
  console.log(
    `US wins: ${summary.usWins}/${summary.games} = ${interval(summary.usShare)}; ended on the track: ${summary.trackEnds}`,
  );
  console.log(
    '\n| player | wins | win rate [95 % CI] | as US | as USSR | ms/decision mean | p95 | max |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(playerRow(summary.players.a));
  console.log(playerRow(summary.players.b));
  if (values.json) {
    const { writeFile } = await import('node:fs/promises');
    await writeFile(
      values.json,
      `${JSON.stringify({ setup, from, games, seconds, workers, cpu, summary }, null, 2)}\n`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
