/**
 * Storage per move, two ways, on both stores (issue 12 point 5): the whole state written
 * with every move (what the server does: a compare-and-set UPDATE of the state row and an
 * appended move), against an append-only move log with a snapshot of the state every
 * `--snapshot` moves (the compare-and-set is the move's primary key; a cache miss rebuilds
 * the state from the snapshot and the moves after it through boardgame.io's reducer).
 * Each way stores the same moves of the same random games, interleaved across matches as a
 * busy server stores them; SQLite commits `--batch` moves per transaction (the server's
 * group commit), Postgres runs one statement per move, `--concurrency` at once.
 *
 *   npm run bench:server:storage [-- --matches 200 --snapshot 16 --batch 50 --concurrency 20
 *                                    --stores sqlite,postgres]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { LogEntry } from '@iron-curtain/game';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import pg from 'pg';
import { parseOptions } from './lib/args.ts';
import {
  BENCH_SETUP_DATA,
  IronCurtainGame,
  randomLegalMove,
  type State,
} from './lib/iron-curtain.ts';
import { machine, record } from './lib/report.ts';

const options = parseOptions(
  {
    matches: 200,
    snapshot: 16,
    batch: 50,
    concurrency: 20,
    workers: 1,
  },
  { stores: 'sqlite,postgres' },
);
const POSTGRES_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

type Full = ReturnType<typeof InitializeGame>;
interface Step {
  matchID: string;
  stateID: number;
  state: string;
  move: { seat: string; move: string; args: string; entries: string };
}

/** Every move of `matches` random games, as the store would be asked to write them, interleaved. */
function workload(matches: number): { initial: Map<string, string>; steps: Step[] } {
  const initial = new Map<string, string>();
  const perMatch: Step[][] = [];
  for (let m = 0; m < matches; m++) {
    const matchID = `bench${String(m).padStart(11, '0')}`;
    const game = { ...IronCurtainGame, seed: matchID };
    const reduce = CreateGameReducer({ game });
    let full: Full = InitializeGame({ game, numPlayers: 2, setupData: BENCH_SETUP_DATA });
    const { deltalog: _, ...first } = full;
    initial.set(matchID, JSON.stringify(first));
    const steps: Step[] = [];
    while (!full.ctx.gameover) {
      const G = full.G as State;
      const seat = G.decision?.seat as '0' | '1';
      const pick = randomLegalMove(G, seat);
      if (!pick) throw new Error('no legal move');
      full = reduce(full, {
        type: 'MAKE_MOVE',
        payload: { type: pick.move, args: pick.args, playerID: seat },
      });
      const { deltalog, ...state } = full;
      const entries = (deltalog ?? []).flatMap(
        (e) => (e.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
      );
      steps.push({
        matchID,
        stateID: full._stateID,
        state: JSON.stringify(state),
        move: {
          seat,
          move: pick.move,
          args: JSON.stringify(pick.args),
          entries: JSON.stringify(entries),
        },
      });
    }
    perMatch.push(steps);
  }
  const steps: Step[] = [];
  for (let k = 0; perMatch.some((s) => k < s.length); k++) {
    for (const s of perMatch) if (k < s.length) steps.push(s[k] as Step);
  }
  return { initial, steps };
}

type Way = 'whole state' | 'log + snapshot';
interface Figures {
  store: string;
  way: Way;
  seconds: number;
  cpuSeconds: number;
  moves: number;
  bytes: number;
  missMs: number;
}

const isSnapshot = (step: Step) => step.stateID % options.snapshot === 0;
const bytesOf = (step: Step, way: Way) =>
  step.move.args.length +
  step.move.entries.length +
  (way === 'whole state' || isSnapshot(step) ? step.state.length : 0);

/** What a cache miss costs the log: the snapshot and the moves after it, replayed. */
function rebuild(snapshot: string, moves: { seat: string; move: string; args: string }[]): Full {
  const reduce = CreateGameReducer({ game: IronCurtainGame });
  let full = JSON.parse(snapshot) as Full;
  for (const m of moves) {
    full = reduce(full, {
      type: 'MAKE_MOVE',
      payload: { type: m.move, args: JSON.parse(m.args), playerID: m.seat },
    });
  }
  return full;
}

function sqlite(way: Way, initial: Map<string, string>, steps: Step[]): Figures {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ic-storage-bench-'));
  const db = new DatabaseSync(path.join(dir, 'bench.sqlite'));
  const run = (sql: string, ...values: (string | number)[]) => db.prepare(sql).run(...values);
  try {
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec(`CREATE TABLE states (match_id TEXT PRIMARY KEY, state_id INTEGER NOT NULL, state TEXT NOT NULL);
      CREATE TABLE moves (match_id TEXT NOT NULL, state_id INTEGER NOT NULL, seat TEXT NOT NULL,
        move TEXT NOT NULL, args TEXT NOT NULL, entries TEXT NOT NULL, PRIMARY KEY (match_id, state_id));`);
    for (const [matchID, state] of initial)
      run('INSERT INTO states VALUES (?, 0, ?)', matchID, state);
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < steps.length; i += options.batch) {
      db.exec('BEGIN IMMEDIATE');
      for (const s of steps.slice(i, i + options.batch)) {
        if (way === 'whole state') {
          const written = run(
            'UPDATE states SET state_id = ?, state = ? WHERE match_id = ? AND state_id = ?',
            s.stateID,
            s.state,
            s.matchID,
            s.stateID - 1,
          ).changes;
          if (written !== 1) throw new Error('stale');
        }
        run(
          'INSERT INTO moves VALUES (?, ?, ?, ?, ?, ?)',
          s.matchID,
          s.stateID,
          s.move.seat,
          s.move.move,
          s.move.args,
          s.move.entries,
        );
        if (way === 'log + snapshot' && isSnapshot(s)) {
          run(
            'UPDATE states SET state_id = ?, state = ? WHERE match_id = ?',
            s.stateID,
            s.state,
            s.matchID,
          );
        }
      }
      db.exec('COMMIT');
    }
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    // A miss: load every match's state once, as a restarted server does on its next move.
    const loadStarted = performance.now();
    for (const matchID of initial.keys()) {
      const row = db
        .prepare('SELECT state_id, state FROM states WHERE match_id = ?')
        .get(matchID) as {
        state_id: number;
        state: string;
      };
      if (way === 'whole state') JSON.parse(row.state);
      else {
        const after = db
          .prepare(
            'SELECT seat, move, args FROM moves WHERE match_id = ? AND state_id > ? ORDER BY state_id',
          )
          .all(matchID, row.state_id) as { seat: string; move: string; args: string }[];
        rebuild(row.state, after);
      }
    }
    const missMs = (performance.now() - loadStarted) / initial.size;
    return {
      store: 'SQLite',
      way,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      moves: steps.length,
      bytes: steps.reduce((n, s) => n + bytesOf(s, way), 0),
      missMs,
    };
  } finally {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function postgres(way: Way, initial: Map<string, string>, steps: Step[]): Promise<Figures> {
  const schema = `bench_storage_${process.pid}`;
  const pool = new pg.Pool({ connectionString: POSTGRES_URL, max: 10 });
  const S = `"${schema}"`;
  try {
    await pool.query(`CREATE SCHEMA ${S}`);
    await pool.query(`CREATE TABLE ${S}.states (match_id text PRIMARY KEY, state_id integer NOT NULL, state json NOT NULL);
      CREATE TABLE ${S}.moves (match_id text NOT NULL, state_id integer NOT NULL, seat text NOT NULL,
        move text NOT NULL, args json NOT NULL, entries json NOT NULL, PRIMARY KEY (match_id, state_id));`);
    for (const [matchID, state] of initial)
      await pool.query(`INSERT INTO ${S}.states VALUES ($1, 0, $2)`, [matchID, state]);
    const wholeState = `WITH written AS (
        UPDATE ${S}.states SET state_id = $1, state = $2 WHERE match_id = $3 AND state_id = $4
        RETURNING match_id)
      INSERT INTO ${S}.moves SELECT match_id, $1, $5, $6, $7::json, $8::json FROM written`;
    const logged = `INSERT INTO ${S}.moves VALUES ($1, $2, $3, $4, $5::json, $6::json)
      ON CONFLICT DO NOTHING`;
    const snapshot = `WITH logged AS (
        INSERT INTO ${S}.moves VALUES ($1, $2, $3, $4, $5::json, $6::json)
        ON CONFLICT DO NOTHING RETURNING match_id)
      UPDATE ${S}.states SET state_id = $2, state = $7 WHERE match_id = (SELECT match_id FROM logged)`;
    const statement = (s: Step): [string, unknown[]] => {
      const { seat, move, args, entries } = s.move;
      if (way === 'whole state')
        return [
          wholeState,
          [s.stateID, s.state, s.matchID, s.stateID - 1, seat, move, args, entries],
        ];
      const row = [s.matchID, s.stateID, seat, move, args, entries];
      return isSnapshot(s) ? [snapshot, [...row, s.state]] : [logged, row];
    };
    // Moves of one match run in order; up to `concurrency` matches at once.
    const byMatch = new Map<string, Step[]>();
    for (const s of steps) byMatch.set(s.matchID, [...(byMatch.get(s.matchID) ?? []), s]);
    const queue = [...byMatch.values()];
    const started = performance.now();
    const cpu = process.cpuUsage();
    const worker = async () => {
      for (let moves = queue.shift(); moves; moves = queue.shift()) {
        for (const s of moves) await pool.query(...statement(s));
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const used = process.cpuUsage(cpu);
    const seconds = (performance.now() - started) / 1000;
    const loadStarted = performance.now();
    for (const matchID of initial.keys()) {
      const { rows } = await pool.query(
        `SELECT state_id, state::text AS state FROM ${S}.states WHERE match_id = $1`,
        [matchID],
      );
      const row = rows[0] as { state_id: number; state: string };
      if (way === 'whole state') JSON.parse(row.state);
      else {
        const after = await pool.query(
          `SELECT seat, move, args::text AS args FROM ${S}.moves
           WHERE match_id = $1 AND state_id > $2 ORDER BY state_id`,
          [matchID, row.state_id],
        );
        rebuild(row.state, after.rows as { seat: string; move: string; args: string }[]);
      }
    }
    const missMs = (performance.now() - loadStarted) / initial.size;
    return {
      store: 'Postgres',
      way,
      seconds,
      cpuSeconds: (used.user + used.system) / 1e6,
      moves: steps.length,
      bytes: steps.reduce((n, s) => n + bytesOf(s, way), 0),
      missMs,
    };
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS ${S} CASCADE`).catch(() => undefined);
    await pool.end();
  }
}

const run = machine();
const { initial, steps } = workload(options.matches);
const ways: Way[] = ['whole state', 'log + snapshot'];
const figures: Figures[] = [];
const stores = options.lists.stores;
if (stores.includes('sqlite')) for (const way of ways) figures.push(sqlite(way, initial, steps));
if (stores.includes('postgres')) {
  for (const way of ways) figures.push(await postgres(way, initial, steps));
}
record(
  'storage-writes',
  run,
  ['store', 'way', 'moves/s', 'CPU µs/move (Node)', 'bytes/move', 'load on a miss, ms'],
  figures.map((f) => [
    f.store,
    f.way,
    Math.round(f.moves / f.seconds),
    Math.round((f.cpuSeconds * 1e6) / f.moves),
    Math.round(f.bytes / f.moves),
    f.missMs.toFixed(2),
  ]),
  { options, figures },
);
