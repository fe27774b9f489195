/**
 * A class behind one school address: `--students` players, all from 127.0.0.3, each opening a
 * match of their own at the same moment (the lobby's POST, then the game socket and its sync),
 * against one server with its production limits. Each student's client reconnects as the web
 * client does (after 250 ms, backing off to 4 s). Measured: how long until every student holds
 * their match (goal: all within 10 s), and the handshakes refused on the way. Each round on a
 * fresh server; with BENCH_BEFORE_DIR (another copy of apps/server), each round runs that one
 * first, then ours, side by side.
 *
 *   npx tsx bench/server/class.ts [-- --students 30 --rounds 3]
 */
import http from 'node:http';
import path from 'node:path';
import { io } from 'socket.io-client';
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { machine, record } from './lib/report.ts';
import { ms, summarize } from './lib/stats.ts';
import { SERVER_DIR, startTarget } from './lib/targets.ts';

const options = parseOptions({ students: 30, rounds: 3, workers: 1 });
const SCHOOL_ADDRESS = '127.0.0.3';
/** The production defaults of the limits the benchmarks raise (apps/server/src/ops/config.ts). */
const PRODUCTION_LIMITS = {
  LOBBY_WRITES_PER_MINUTE: '60',
  SOCKETS_PER_ADDRESS: '200',
  SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '10',
  SOCKET_CONNECTS_AT_ONCE: '10',
  SOCKET_CONNECTS_HELD: '40',
};
/** A student still without their match after this long counts as not in. */
const GIVE_UP_MS = 30_000;

interface Student {
  /** ms from the start until the match's first sync arrived (undefined: never). */
  inAfter?: number;
  /** Handshakes refused before getting in. */
  refused: number;
  error?: string;
}

function createMatch(port: number): Promise<{ matchID: string; credentials: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: '/api/matches',
        method: 'POST',
        localAddress: SCHOOL_ADDRESS,
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () =>
          res.statusCode === 200 || res.statusCode === 201
            ? resolve(JSON.parse(body))
            : reject(new Error(`POST /api/matches: ${res.statusCode} ${body}`)),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ name: 'Pupil', side: 'US' }));
  });
}

async function student(port: number, start: number): Promise<Student> {
  const result: Student = { refused: 0 };
  try {
    const { matchID, credentials } = await createMatch(port);
    const socket = io(`http://127.0.0.1:${port}/game`, {
      transports: ['websocket'],
      forceNew: true,
      reconnectionDelay: 250,
      reconnectionDelayMax: 4000,
      localAddress: SCHOOL_ADDRESS,
    } as Parameters<typeof io>[1]);
    socket.on('connect_error', () => (result.refused += 1));
    socket.on('connect', () => socket.emit('sync', { matchID, playerID: '0', credentials }));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, GIVE_UP_MS);
      socket.once('sync', () => {
        result.inAfter = performance.now() - start;
        clearTimeout(timer);
        resolve();
      });
    });
    socket.close();
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  return result;
}

async function classRound(serverDir: string): Promise<Student[]> {
  const target = await startTarget('sqlite', {
    cpuProf: options.cpuProf,
    env: PRODUCTION_LIMITS,
    serverDir,
  });
  try {
    const start = performance.now();
    return await Promise.all(
      Array.from({ length: options.students }, () => student(target.port, start)),
    );
  } finally {
    await target.dispose();
  }
}

bounded(60 + options.rounds * 2 * (GIVE_UP_MS / 1000 + 30), async () => {
  const run = machine();
  const before = process.env.BENCH_BEFORE_DIR;
  const servers = [...(before ? [path.resolve(before)] : []), SERVER_DIR];
  const rows: (string | number)[][] = [];
  const details: unknown[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    for (const serverDir of servers) {
      const students = await classRound(serverDir);
      const times = students.flatMap((s) => (s.inAfter === undefined ? [] : [s.inAfter]));
      const summary = summarize(times);
      const errors = [...new Set(students.flatMap((s) => (s.error ? [s.error] : [])))];
      rows.push([
        round,
        serverDir === SERVER_DIR ? 'ours' : 'BENCH_BEFORE_DIR',
        `${times.length} / ${options.students}`,
        ms(summary.p50),
        ms(summary.max),
        students.reduce((n, s) => n + s.refused, 0),
        times.length === options.students && summary.max <= 10_000 ? 'yes' : 'no',
        errors.join(' | '),
      ]);
      details.push({ round, serverDir, students });
    }
  }
  record(
    'class',
    run,
    [
      'round',
      'server',
      'students in',
      'median ms',
      'last in ms',
      'handshakes refused',
      'all in within 10 s',
      'errors',
    ],
    rows,
    { students: options.students, details },
  );
});
