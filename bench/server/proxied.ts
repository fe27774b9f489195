/**
 * The scale profile on this machine: one server behind nginx against two behind nginx
 * (deploy/nginx.conf, only the upstream addresses and port changed), same run. For each
 * setup, moves per second at saturation (closed loop) and latency with 2,000 matches each
 * moving once per period, with the CPU each part used in the window: servers, nginx,
 * Postgres, Redis (the rest is the benchmark's own clients).
 *
 *   npm run bench:server:proxied [-- --setups sqlite-1,postgres-1,postgres-2 --matches 100
 *     --crowd 2000 --period 2000 --workers 2 --seconds 10 --crowd-seconds 15 --warmup 3]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { type Nginx, startNginx } from '../../apps/server/test/nginx.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { type LoadRun, measureLoadOn, problems } from './lib/load.ts';
import { machine, record } from './lib/report.ts';
import { ms, ratio } from './lib/stats.ts';
import { startTarget, type Target } from './lib/targets.ts';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** `<store>-<servers>`: one or two servers, on the embedded store or on Postgres and Redis. */
const SETUPS = {
  'sqlite-1': { store: 'sqlite', servers: 1, label: '1 server, SQLite, nginx' },
  'postgres-1': { store: 'postgres', servers: 1, label: '1 server, Postgres + Redis, nginx' },
  'postgres-2': { store: 'postgres', servers: 2, label: '2 servers, Postgres + Redis, nginx' },
} as const;
type SetupName = keyof typeof SETUPS;

const { values } = parseArgs({
  options: {
    setups: { type: 'string', default: Object.keys(SETUPS).join(',') },
    matches: { type: 'string', default: '100' },
    crowd: { type: 'string', default: '2000' },
    period: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '10' },
    'crowd-seconds': { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
  },
});
const number = (name: keyof typeof values): number => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`--${name}: expected a positive number, got '${values[name]}'`);
    process.exit(2);
  }
  return n;
};
const setups = String(values.setups)
  .split(',')
  .map((s) => s.trim()) as SetupName[];
for (const s of setups) {
  if (!(s in SETUPS)) {
    console.error(`--setups: unknown setup '${s}' (known: ${Object.keys(SETUPS).join(', ')})`);
    process.exit(2);
  }
}
const options = {
  matches: number('matches'),
  crowd: number('crowd'),
  period: number('period'),
  workers: number('workers'),
  seconds: number('seconds'),
  crowdSeconds: number('crowd-seconds'),
  warmup: number('warmup'),
};

/** CPU seconds used so far by every process with one of these names (/proc/<pid>/stat). */
function cpuByName(names: readonly string[]): Record<string, number> {
  const totals = Object.fromEntries(names.map((n) => [n, 0]));
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (!(name in totals)) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    totals[name] = (totals[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return totals;
}
const OTHERS = ['nginx', 'postgres', 'redis-server'] as const;

/** The setup's servers and nginx in front, as one target for the client pool. */
async function startSetup(name: SetupName): Promise<{ target: Target; nginx: Nginx }> {
  const { store, servers } = SETUPS[name];
  const schema = `bench_proxied_${process.pid}_${Date.now()}`;
  const env = store === 'postgres' ? { REDIS_URL, TRUST_PROXY: 'true' } : { TRUST_PROXY: 'true' };
  const backends: Target[] = [];
  for (let i = 0; i < servers; i++) {
    backends.push(await startTarget(store, { cpuProf: false, env, schema }));
  }
  // deploy/nginx.conf names two servers: with one, both names are that one.
  const addresses = [0, 1].map((i) => `127.0.0.1:${backends[i % servers]?.port}`);
  const nginx = await startNginx(addresses);
  const port = Number(new URL(nginx.url).port);
  const target: Target = {
    kind: store,
    port,
    pid: nginx.child.pid ?? -1,
    rss: () => backends.reduce((sum, b) => sum + b.rss(), 0),
    collect: async () => {
      const each = await Promise.all(backends.map((b) => b.collect()));
      return {
        rss: each.reduce((sum, m) => sum + m.rss, 0),
        heapUsed: each.reduce((sum, m) => sum + m.heapUsed, 0),
        external: each.reduce((sum, m) => sum + m.external, 0),
      };
    },
    cpuSeconds: () => backends.reduce((sum, b) => sum + b.cpuSeconds(), 0),
    stop: async () => {
      await nginx.stop();
      await Promise.all(backends.map((b) => b.stop()));
    },
    restart: () => Promise.reject(new Error('not restartable')),
    dispose: async () => {
      await nginx.stop();
      for (const b of backends) await b.dispose();
    },
  };
  return { target, nginx };
}

interface Measured {
  setup: SetupName;
  run: LoadRun;
  /** Share of one core in the window, by part. */
  cpu: Record<(typeof OTHERS)[number], number>;
}

async function measure(setup: SetupName, target: Target, paced: boolean): Promise<Measured> {
  const { frame } = sampleFrame();
  const seconds = paced ? options.crowdSeconds : options.seconds;
  let before: Record<string, number> = {};
  let after: Record<string, number> = {};
  const run = await measureLoadOn(target, {
    mode: paced ? 'paced' : 'closed',
    workers: paced ? Math.max(options.workers, 4) : options.workers,
    matches: paced ? options.crowd : options.matches,
    periodMs: options.period,
    frame,
    warmupMs: options.warmup * 1000,
    windowMs: seconds * 1000,
    onWindow: (edge) => {
      if (edge === 'start') before = cpuByName(OTHERS);
      else after = cpuByName(OTHERS);
    },
  });
  const cpu = Object.fromEntries(
    OTHERS.map((n) => [n, ((after[n] ?? 0) - (before[n] ?? 0)) / seconds]),
  ) as Measured['cpu'];
  return { setup, run, cpu };
}

const share = (x: number) => `${Math.round(x * 100)} %`;

bounded(60 + setups.length * 420, async () => {
  const run = machine();
  const saturated: Measured[] = [];
  const crowded: Measured[] = [];
  for (const setup of setups) {
    console.log(`proxied: ${SETUPS[setup].label}...`);
    const { target } = await startSetup(setup);
    try {
      saturated.push(await measure(setup, target, false));
      crowded.push(await measure(setup, target, true));
    } finally {
      await target.dispose();
    }
  }
  const base = (list: Measured[], name: SetupName) =>
    list.find((m) => m.setup === name)?.run.movesPerSecond ?? Number.NaN;
  const rows = (list: Measured[]) =>
    list.map(({ setup, run: r, cpu }) => [
      SETUPS[setup].label,
      r.opened,
      Math.round(r.movesPerSecond),
      ms(r.latency.p50),
      ms(r.latency.p99),
      ratio(r.movesPerSecond, base(list, 'postgres-1')),
      share(r.serverCpu),
      share(cpu.nginx),
      share(cpu.postgres),
      share(cpu['redis-server']),
      r.cpuPerMove.toFixed(2),
    ]);
  const header = [
    'setup',
    'matches',
    'moves/s',
    'p50 ms',
    'p99 ms',
    'moves/s / 1 server (Postgres)',
    'servers CPU',
    'nginx CPU',
    'Postgres CPU',
    'Redis CPU',
    'server CPU ms/move',
  ];
  const details = (list: Measured[]) =>
    list.map(
      ({
        run: {
          result: { latencies: _, ...rest },
          ...r
        },
        ...m
      }) => ({
        ...m,
        run: { ...r, result: rest },
      }),
    );
  record('proxied, saturation', run, header, rows(saturated), {
    options,
    runs: details(saturated),
  });
  record(`proxied, ${options.crowd} matches`, run, header, rows(crowded), {
    options,
    runs: details(crowded),
  });
  console.log(
    `\nsaturation: ${options.matches} matches in a closed loop; crowd: each of ${options.crowd} matches moves once per ${options.period} ms`,
  );
  for (const m of [...saturated, ...crowded]) {
    for (const p of problems(m.run)) console.log(`${m.setup}: ${p}`);
  }
});
