/**
 * Correspondence deadlines at scale: `--matches` stored correspondence matches in play, of
 * which `--due` fall due within the next day (one day per turn, begun up to a day ago) and the
 * rest days later (seven days per turn, begun up to three days ago). Per target:
 *
 * - memory: the server process's RSS (and, with --collect, its live JS heap) once started on
 *   an empty store, then on the loaded one: a server holds nothing per match for deadlines
 *   far away, so the two should differ by a bounded amount, not by the number of matches;
 * - the sweep: the store is moved a day on (every clock's start and stored deadline one day
 *   earlier, as if the server had been down for that day), the server is started again, and
 *   its CPU (user + system, from /proc) from listening until every due match has ended on time,
 *   less its idle CPU over as long, is divided by the number of due matches.
 *
 * The matches are written with the server's own match store (its createMatch and setClock) into
 * the target's DATA_DIR or schema while the server is stopped; they share one initial state
 * (the sweep never reads a state).
 *
 *   npm run bench:server:deadlines [-- --matches 100000 --due 10000 --targets sqlite,postgres]
 */
import { DatabaseSync } from 'node:sqlite';
import { DEFAULT_DECK, type Seat } from '@iron-curtain/game';
import pg from 'pg';
import { parseOptions } from './lib/args.ts';
import { bounded, sleep } from './lib/bounded.ts';
import { BENCH_SETUP_DATA } from './lib/iron-curtain.ts';
import { machine, record } from './lib/report.ts';
import { type StartedTarget, startTarget, type Target } from './lib/targets.ts';

const { openSqliteStores } = await import('../../apps/server/src/storage/sqlite.ts');
const { SQLITE_FILE } = await import('../../apps/server/src/storage/database/sqlite-database.ts');
const { openPostgresStores } = await import('../../apps/server/src/storage/postgres.ts');
const { initialState } = await import('../../apps/server/src/match/engine.ts');
const { turnClock, switchClock } = await import('../../apps/server/src/match/clock-record.ts');
const { deckInfoOf } = await import('../../apps/server/src/decks/built-in-decks.ts');
type Stores = import('../../apps/server/src/storage/stores.ts').Stores;

const options = parseOptions({ matches: 100_000, due: 10_000, settle: 5, workers: 1 });
const targets = options.targets.filter((t) => t === 'sqlite' || t === 'postgres');
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Writes in flight while loading. */
const LOAD_CONCURRENCY = 200;

/** Stores the matches: the first `due` with one day per turn, begun up to a day ago. */
async function load(stores: Stores, now: number): Promise<void> {
  const deck = deckInfoOf(DEFAULT_DECK);
  const setupData = BENCH_SETUP_DATA;
  const at = new Date(now - 3 * DAY).toISOString();
  const template = {
    visibility: 'private',
    status: 'playing',
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck,
    setupData,
    seed: 'bench-deadlines',
    inviteHash: 'x',
    createdAt: at,
    updatedAt: at,
    result: null,
  } as const;
  const initial = initialState({ deck, setupData, seed: template.seed });
  let next = 0;
  const lane = async () => {
    while (next < options.matches) {
      const i = next++;
      const due = i < options.due;
      const days = due ? 1 : 7;
      // Spread over the day (due) or over three days (the rest): never two deadlines alike.
      const share = due
        ? (i + 0.5) / options.due
        : (i - options.due + 0.5) / (options.matches - options.due);
      const since = now - (due ? DAY : 3 * DAY) * share;
      const seat: Seat = i % 2 === 0 ? '0' : '1';
      const clock = switchClock(turnClock(days), seat, since);
      const matchID = `bench-deadline-${String(i).padStart(7, '0')}`;
      await stores.matches.createMatch(
        {
          ...template,
          matchID,
          players: [
            { seat: '0', side: 'US', name: 'Ann', credentialsHash: 'a' },
            { seat: '1', side: 'USSR', name: 'Boris', credentialsHash: 'b' },
          ],
          clock,
          daysPerTurn: days,
        },
        initial,
      );
      await stores.matches.setClock(matchID, clock);
    }
  };
  await Promise.all(Array.from({ length: LOAD_CONCURRENCY }, lane));
}

/** A day passes while the server is down: every clock began, and every deadline falls, a day earlier. */
async function dayLater(target: StartedTarget): Promise<void> {
  if (target.kind === 'sqlite') {
    const db = new DatabaseSync(`${target.dataDir}/${SQLITE_FILE}`);
    const earlier = (column: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${column}, '-1 day')`;
    db.exec(`UPDATE matches SET
      clock = json_set(clock, '$.since', ${earlier("json_extract(clock, '$.since')")}),
      deadline = ${earlier('deadline')},
      warn_at = CASE WHEN warn_at IS NULL THEN NULL ELSE ${earlier('warn_at')} END
      WHERE deadline IS NOT NULL`);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const S = `"${target.schema}"`;
  await client.query(`UPDATE ${S}.matches SET
    clock = jsonb_set(clock::jsonb, '{since}', to_jsonb(to_char(
      ((clock->>'since')::timestamptz - interval '1 day') AT TIME ZONE 'UTC',
      'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))::json,
    deadline = deadline - interval '1 day',
    warn_at = warn_at - interval '1 day'
    WHERE deadline IS NOT NULL`);
  await client.end();
}

/** How many matches of the store have ended (read with the server stopped). */
async function countFinished(target: StartedTarget): Promise<number> {
  if (target.kind === 'sqlite') {
    const db = new DatabaseSync(`${target.dataDir}/${SQLITE_FILE}`);
    const row = db.prepare(`SELECT count(*) AS n FROM matches WHERE status = 'finished'`).get();
    db.close();
    return Number(row?.n);
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  const { rows } = await client.query(
    `SELECT count(*) AS n FROM "${target.schema}".matches WHERE status = 'finished'`,
  );
  await client.end();
  return Number(rows[0]?.n);
}

async function status(target: Target, matchID: string): Promise<string> {
  const answer = await fetch(`http://127.0.0.1:${target.port}/api/matches/${matchID}`);
  return ((await answer.json()) as { status: string }).status;
}

const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);

/** The server's memory once settled: RSS, and the live heap when started with --collect. */
async function memory(target: Target): Promise<{ rss: number; heap: number | null }> {
  await sleep(options.settle * 1000);
  if (!options.collect) return { rss: target.rss(), heap: null };
  const collected = await target.collect();
  return { rss: collected.rss, heap: collected.heapUsed };
}

bounded(1800, async () => {
  const run = machine();
  const rows: (string | number)[][] = [];
  const details: unknown[] = [];
  for (const kind of targets) {
    const target = await startTarget(kind, { cpuProf: options.cpuProf, collect: options.collect });
    try {
      const empty = await memory(target);
      await target.stop();

      const loadStart = Date.now();
      const stores =
        kind === 'sqlite'
          ? openSqliteStores(target.dataDir)
          : await openPostgresStores(DATABASE_URL, target.schema);
      await load(stores, Date.now());
      await stores.close();
      const loadSeconds = (Date.now() - loadStart) / 1000;

      await target.restart();
      // The start's own CPU, nothing due: what the second start costs beside the sweep.
      const cpuStarted = target.cpuSeconds();
      const idleStart = performance.now();
      const loaded = await memory(target);
      const idlePerSecond =
        (target.cpuSeconds() - cpuStarted) / ((performance.now() - idleStart) / 1000);
      // None due yet: every match is still in play.
      if ((await status(target, 'bench-deadline-0000000')) !== 'playing') {
        throw new Error('a match ended early');
      }
      await target.stop();

      await dayLater(target);
      // The sweep runs as the server starts (part of it maybe before it says it listens): its
      // CPU is the whole process's until the last due match ended, less a start's and idling.
      await target.restart();
      const start = performance.now();
      // The sweep takes the soonest deadlines first: the due match begun last (the first
      // stored) ends last.
      const last = 'bench-deadline-0000000';
      while ((await status(target, last)) !== 'finished') await sleep(200);
      const seconds = (performance.now() - start) / 1000;
      const sweepCpu = target.cpuSeconds() - cpuStarted - idlePerSecond * seconds;
      const stillPlaying = await status(
        target,
        `bench-deadline-${String(options.due).padStart(7, '0')}`,
      );
      if (stillPlaying !== 'playing') throw new Error('a match not yet due ended');
      const after = target.rss();
      await target.stop();
      const ended = await countFinished(target);
      if (ended !== options.due) throw new Error(`${ended} matches ended, not ${options.due}`);
      rows.push([
        kind,
        options.matches,
        options.due,
        mib(empty.rss),
        mib(loaded.rss),
        empty.heap === null || loaded.heap === null
          ? '-'
          : `${mib(empty.heap)} -> ${mib(loaded.heap)}`,
        seconds.toFixed(1),
        ((sweepCpu / options.due) * 1e6).toFixed(0),
        mib(after),
      ]);
      details.push({ kind, empty, loaded, idlePerSecond, seconds, sweepCpu, after, loadSeconds });
    } finally {
      await target.dispose();
    }
  }
  record(
    'deadlines',
    run,
    [
      'target',
      'matches',
      'due',
      'RSS empty MiB',
      'RSS loaded MiB',
      'live heap MiB',
      'sweep s (wall)',
      'sweep CPU us / due match',
      'RSS after sweep MiB',
    ],
    rows,
    details,
  );
});
