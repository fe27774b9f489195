import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { serverCommand } from './cores.ts';

/** The servers a benchmark can measure, in the order they run. */
export const TARGET_KINDS = ['echo', 'stock', 'stock-ic', 'sqlite', 'postgres'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export const TARGET_LABELS: Record<TargetKind, string> = {
  echo: 'floor: socket.io echo',
  stock: 'stock boardgame.io, in memory',
  'stock-ic': 'stock boardgame.io, Iron Curtain, in memory',
  sqlite: 'ours, embedded SQLite',
  postgres: 'ours, Postgres',
};

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const BENCH_DIR = path.resolve(HERE, '..');
const REPO = path.resolve(BENCH_DIR, '../..');
export const OUT_DIR = path.join(BENCH_DIR, 'out');
/**
 * Our server's sources: apps/server, or BENCH_SERVER_DIR to measure a variant (a copy of
 * apps/server with a candidate change, its node_modules linked to apps/server's).
 */
export const SERVER_DIR = path.resolve(
  process.env.BENCH_SERVER_DIR ?? path.join(REPO, 'apps/server'),
);
/** Where the bundle of one server directory goes. */
const buildDirOf = (serverDir: string) => path.join(BENCH_DIR, 'dist', path.basename(serverDir));

/** Postgres for the 'postgres' target; each run uses a schema of its own and drops it. */
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Our server admits 10 messages per socket per second by default; a benchmark client
 * moving as fast as the server answers would be refused, so the limit is raised for the
 * measurement (the cost of the check itself stays in).
 */
const BENCH_RATE_LIMIT = '100000';

/** A server's memory right after a full garbage collection, in bytes (process.memoryUsage). */
export interface CollectedMemory {
  rss: number;
  /** The JS heap's live objects. */
  heapUsed: number;
  /** Memory V8 knows of outside its heap (Buffers, WebAssembly memory). */
  external: number;
}

export interface Target {
  kind: TargetKind;
  port: number;
  pid: number;
  /** Resident set size of the server process, in bytes. */
  rss(): number;
  /** A full garbage collection in the server, then its memory; only for a target started with `collect`. */
  collect(): Promise<CollectedMemory>;
  /** CPU time the server process has used so far (user + system), in seconds. */
  cpuSeconds(): number;
  /** SIGTERM, then SIGKILL after 15 s; resolves when the process has exited. */
  stop(): Promise<void>;
  /** Starts the server again on the same port with the same data. */
  restart(): Promise<void>;
  /** Removes what the target stored (data directory, Postgres schema). */
  dispose(): Promise<void>;
}

/** The server directories bundled so far in this run. */
const built = new Set<string>();

/** Server processes still running; killed if the benchmark exits early. */
const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ; 100 on Linux). */
const TICKS = 100;

/** CPU seconds a process has used so far, all its threads (/proc/<pid>/stat). */
export function cpuSecondsOf(pid: number | undefined): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS;
}

/** Bundles our server the way it ships (its own scripts/bundle.ts) into bench/server/dist. */
function buildOurServer(serverDir: string): void {
  if (built.has(serverDir)) return;
  const bundle = pathToFileURL(path.join(serverDir, 'scripts/bundle.ts')).href;
  const outfile = path.join(buildDirOf(serverDir), 'main.js');
  execFileSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `const { bundleServer } = await import(${JSON.stringify(bundle)}); await bundleServer(${JSON.stringify(outfile)});`,
    ],
    { cwd: serverDir, stdio: 'inherit' },
  );
  built.add(serverDir);
}

interface Launch {
  args: string[];
  env: NodeJS.ProcessEnv;
  /** Reads the port from a line of the server's stdout. */
  portFrom(line: string): number | undefined;
}

function launchFor(
  kind: TargetKind,
  port: number,
  dataDir: string,
  schema: string,
  serverDir: string,
): Launch {
  const tsx = ['--import', 'tsx'];
  const jsonPort = (line: string) => {
    const m = /^BENCH_PORT (\d+)$/.exec(line.trim());
    return m ? Number(m[1]) : undefined;
  };
  switch (kind) {
    case 'echo':
      return {
        args: [...tsx, path.join(BENCH_DIR, 'servers/echo.ts')],
        env: { PORT: String(port) },
        portFrom: jsonPort,
      };
    case 'stock':
    case 'stock-ic':
      return {
        args: [...tsx, path.join(BENCH_DIR, 'servers/stock.ts')],
        env: {
          PORT: String(port),
          BENCH_STOCK_GAME: kind === 'stock-ic' ? 'iron-curtain' : 'trivial',
        },
        portFrom: jsonPort,
      };
    case 'sqlite':
    case 'postgres': {
      const env: NodeJS.ProcessEnv = {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIST: path.join(dataDir, 'no-web-client'),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_SECOND: BENCH_RATE_LIMIT,
        RATE_LIMIT_BURST: BENCH_RATE_LIMIT,
        LOBBY_WRITES_PER_MINUTE: BENCH_RATE_LIMIT,
        // All of a benchmark's clients come from 127.0.0.1 (bench/server/flood.ts sets its own).
        SOCKETS_PER_ADDRESS: BENCH_RATE_LIMIT,
        SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: BENCH_RATE_LIMIT,
        SOCKET_CONNECTS_AT_ONCE: BENCH_RATE_LIMIT,
        METRICS_PORT: '0',
      };
      if (kind === 'postgres') {
        env.DATABASE_URL = DATABASE_URL;
        env.DATABASE_SCHEMA = schema;
      }
      return {
        args: [path.join(buildDirOf(serverDir), 'main.js')],
        env,
        portFrom: (line) => {
          const m = /"port":(\d+).*"msg":"listening"/.exec(line);
          return m ? Number(m[1]) : undefined;
        },
      };
    }
  }
}

/** A target this process started: where our server keeps its data, for a benchmark to fill while it is stopped. */
export interface StartedTarget extends Target {
  /** DATA_DIR (its SQLite file). */
  dataDir: string;
  /** DATABASE_SCHEMA on Postgres. */
  schema: string;
}

/**
 * Starts one server process on 127.0.0.1 and resolves once it listens. `env`: settings of our
 * server that differ from the benchmarks' (see launchFor); `schema` names its Postgres schema
 * (several servers sharing one store); `dataDir` its DATA_DIR (a fresh one by default);
 * `serverDir` our server's sources (SERVER_DIR by default), to run two versions in one run.
 */
export async function startTarget(
  kind: TargetKind,
  opts: {
    cpuProf: boolean;
    collect?: boolean;
    env?: NodeJS.ProcessEnv;
    schema?: string;
    dataDir?: string;
    serverDir?: string;
  },
): Promise<StartedTarget> {
  const serverDir = path.resolve(opts.serverDir ?? SERVER_DIR);
  if (kind === 'sqlite' || kind === 'postgres') buildOurServer(serverDir);
  fs.mkdirSync(OUT_DIR, { recursive: true });
  const runID = `${kind}-${process.pid}-${Date.now()}`;
  const dataDir = opts.dataDir ?? path.join(OUT_DIR, 'data', runID);
  fs.mkdirSync(dataDir, { recursive: true });
  const schema = opts.schema ?? `bench_server_${process.pid}_${Date.now()}`;
  const logFile = path.join(OUT_DIR, `${runID}.log`);
  let child: ChildProcess | undefined;
  let port = 0;
  /** Told when the server says its garbage collection (`collect`) is done. */
  let collected: ((memory: CollectedMemory) => void) | undefined;

  const spawnOnce = async (): Promise<void> => {
    const launch = launchFor(kind, port, dataDir, schema, serverDir);
    const prof = opts.cpuProf
      ? [
          '--cpu-prof',
          `--cpu-prof-dir=${path.join(OUT_DIR, 'prof')}`,
          `--cpu-prof-name=${kind}-${Date.now()}.cpuprofile`,
        ]
      : [];
    const collect = opts.collect
      ? ['--expose-gc', '--require', path.join(HERE, 'collect-garbage.cjs')]
      : [];
    const log = fs.openSync(logFile, 'a');
    // BENCH_SERVER_NODE_FLAGS: V8/Node flags for the server processes only (e.g. GC settings).
    const flags = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter((f) => f !== '');
    const [command, args] = serverCommand(process.execPath, [
      ...flags,
      ...prof,
      ...collect,
      ...launch.args,
    ]);
    const proc = spawn(command, args, {
      cwd: REPO,
      env: { ...process.env, NODE_ENV: 'production', ...launch.env, ...opts.env },
      stdio: ['ignore', 'pipe', log],
    });
    child = proc;
    live.add(proc);
    proc.once('exit', () => live.delete(proc));
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`${kind} did not start in 30 s; see ${logFile}`)),
        30_000,
      );
      let buffer = '';
      proc.stdout?.on('data', (chunk: Buffer) => {
        fs.appendFileSync(logFile, chunk);
        buffer += chunk.toString('utf8');
        for (const line of buffer.split('\n')) {
          const found = launch.portFrom(line);
          if (found !== undefined) {
            clearTimeout(timer);
            resolve(found);
          }
        }
        buffer = buffer.slice(buffer.lastIndexOf('\n') + 1);
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${kind} exited with ${code} while starting; see ${logFile}`));
      });
    });
    proc.stdout?.removeAllListeners('data');
    proc.stdout?.on('data', (chunk: Buffer) => {
      fs.appendFileSync(logFile, chunk);
      const said = /^BENCH_COLLECTED (.*)$/m.exec(chunk.toString('utf8'));
      if (said) collected?.(JSON.parse(said[1] as string) as CollectedMemory);
    });
  };

  const stop = async (): Promise<void> => {
    const proc = child;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };

  await spawnOnce();
  const target: StartedTarget = {
    kind,
    dataDir,
    schema,
    get port() {
      return port;
    },
    get pid() {
      return child?.pid ?? -1;
    },
    rss: () => {
      const status = fs.readFileSync(`/proc/${child?.pid}/status`, 'utf8');
      const kB = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
      return Number(kB) * 1024;
    },
    collect: () => {
      if (!opts.collect) return Promise.reject(new Error(`${kind} was not started to collect`));
      const done = new Promise<CollectedMemory>((resolve) => {
        collected = resolve;
      });
      child?.kill('SIGUSR2');
      return done;
    },
    cpuSeconds: () => cpuSecondsOf(child?.pid),
    stop,
    restart: async () => {
      await stop();
      await spawnOnce();
    },
    dispose: async () => {
      await stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (kind === 'postgres') {
        const client = new pg.Client({ connectionString: DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    },
  };
  return target;
}
