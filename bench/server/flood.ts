/**
 * One address floods, everyone else plays: the move round trip of the other matches with 20
 * sockets from one address (127.0.0.2) sending moves as fast as they can, beside the same run
 * without the flood. Each run has three windows, before, during and after the flood (the run
 * without it has the same three, quiet). The server runs with its production limits (the
 * per-socket message rate too); the players' matches each come from an address of their own;
 * the flooder runs at the lowest CPU priority (nice 19), standing in for a machine of its own.
 *
 * Attackers (--attackers): `paced` tries a dropped or refused socket again after 20 ms,
 * `reconnecting` at once. Ways in (--via): `direct` to the server, `nginx` through
 * deploy/nginx.conf in front of it (as bench/server/proxied.ts starts it), the server trusting
 * its X-Forwarded-For.
 *
 *   npx tsx bench/server/flood.ts [-- --matches 50 --period 1000 --flooders 20 --seconds 10
 *     --attackers paced,reconnecting --via direct,nginx --targets sqlite]
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { freePort, startNginx } from '../../apps/server/test/nginx.ts';
import type { FloodResult } from './client/flooder.ts';
import type { LoadResult } from './client/protocol.ts';
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { ClientPool } from './lib/pool.ts';
import { machine, record } from './lib/report.ts';
import { type LatencySummary, ms, summarize } from './lib/stats.ts';
import {
  BENCH_DIR,
  startTarget,
  TARGET_LABELS,
  type Target,
  type TargetKind,
} from './lib/targets.ts';

const options = parseOptions(
  { matches: 50, period: 1000, flooders: 20, seconds: 10, warmup: 3, workers: 2 },
  { attackers: 'paced,reconnecting', via: 'direct' },
);
const targets = process.argv.includes('--targets') ? options.targets : (['sqlite'] as TargetKind[]);
if (targets.some((t) => t !== 'sqlite' && t !== 'postgres')) {
  console.error('--targets: only our server (sqlite, postgres) has limits to measure');
  process.exit(2);
}
/** How long each attacker waits before trying a dropped or refused socket again. */
const ATTACKERS = { paced: 20, reconnecting: 0 } as const;
type Attacker = keyof typeof ATTACKERS;
const WAYS = ['direct', 'nginx'] as const;
type Way = (typeof WAYS)[number];
const attackers = options.lists.attackers as Attacker[];
const ways = options.lists.via as Way[];
for (const a of attackers) {
  if (!(a in ATTACKERS)) {
    console.error(`--attackers: unknown attacker '${a}' (known: ${Object.keys(ATTACKERS)})`);
    process.exit(2);
  }
}
for (const w of ways) {
  if (!(WAYS as readonly string[]).includes(w)) {
    console.error(`--via: unknown way '${w}' (known: ${WAYS.join(', ')})`);
    process.exit(2);
  }
}

/** The production defaults of the limits the other benchmarks raise (apps/server/src/config.ts). */
const PRODUCTION_LIMITS = {
  RATE_LIMIT_PER_SECOND: '10',
  RATE_LIMIT_BURST: '20',
  SOCKETS_PER_ADDRESS: '200',
  SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '10',
  SOCKET_CONNECTS_AT_ONCE: '10',
  SOCKET_CONNECTS_HELD: '40',
};
const PHASES = ['before', 'during', 'after'] as const;
type Phase = (typeof PHASES)[number];

interface Window {
  result: LoadResult;
  latency: LatencySummary;
  /** Share of one core the server used in the window. */
  serverCpu: number;
  /** Handshakes, sockets and requests the server refused in the window (its /metrics). */
  serverRefused: number;
}

interface FloodRun {
  kind: TargetKind;
  way: Way;
  /** undefined: the run without a flood. */
  attacker?: Attacker;
  windows: Record<Phase, Window>;
  opened: number;
  flooded?: FloodResult;
}

function startFlooder(base: string, sockets: number, retryMs: number): Promise<ChildProcess> {
  const child = fork(path.join(BENCH_DIR, 'client/flooder.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  // An attacker floods from a machine of its own; here the flooder shares ours, so it runs at
  // the lowest priority: what slows the other matches should be the server's work, not its.
  if (child.pid !== undefined) os.setPriority(child.pid, 19);
  return new Promise((resolve, reject) => {
    child.once('message', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`the flooder exited (${code})`)));
    child.send({ type: 'start', task: { base, sockets, retryMs } });
  });
}

function stopFlooder(child: ChildProcess): Promise<FloodResult> {
  return new Promise((resolve) => {
    child.on('message', (m: { type: string; result?: FloodResult }) => {
      if (m.type === 'flood' && m.result) resolve(m.result);
    });
    child.send({ type: 'stop' });
  });
}

/** Everything the server's limits refused so far, from its private metrics listener. */
async function serverRefusals(metricsPort: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  let total = 0;
  for (const [, n] of text.matchAll(/^ic_limits_refused_total\{[^}]*\} (\d+)/gm))
    total += Number(n);
  return total;
}

/** The server, alone or behind nginx (deploy/nginx.conf, both upstreams that one server). */
async function serve(kind: TargetKind, way: Way): Promise<{ target: Target; metricsPort: number }> {
  const metricsPort = await freePort();
  const env = {
    ...PRODUCTION_LIMITS,
    METRICS_PORT: String(metricsPort),
    ...(way === 'nginx' ? { TRUST_PROXY: 'true' } : {}),
  };
  const server = await startTarget(kind, { cpuProf: options.cpuProf, env });
  if (way === 'direct') return { target: server, metricsPort };
  const address = `127.0.0.1:${server.port}`;
  const nginx = await startNginx([address, address]);
  return {
    metricsPort,
    target: {
      ...server,
      port: Number(new URL(nginx.url).port),
      dispose: async () => {
        await nginx.stop();
        await server.dispose();
      },
    },
  };
}

async function measure(kind: TargetKind, way: Way, attacker?: Attacker): Promise<FloodRun> {
  const { target, metricsPort } = await serve(kind, way);
  try {
    const pool = await ClientPool.open(target, {
      mode: 'paced',
      workers: options.workers,
      matches: options.matches,
      periodMs: options.period,
      frame: sampleFrame().frame,
      spreadAddresses: true,
    });
    try {
      const windowMs = options.seconds * 1000;
      const windows = {} as Record<Phase, Window>;
      let flooder: ChildProcess | undefined;
      let flooded: FloodResult | undefined;
      let delay = options.warmup * 1000;
      for (const phase of PHASES) {
        if (phase === 'during' && attacker) {
          flooder = await startFlooder(
            `http://127.0.0.1:${target.port}`,
            options.flooders,
            ATTACKERS[attacker],
          );
        }
        const refusedBefore = await serverRefusals(metricsPort);
        const start = Date.now() + delay;
        let cpuStart = Number.NaN;
        let cpuEnd = Number.NaN;
        setTimeout(() => (cpuStart = target.cpuSeconds()), delay);
        setTimeout(() => (cpuEnd = target.cpuSeconds()), delay + windowMs);
        const result = await pool.play(start, start + windowMs);
        if (phase === 'during' && flooder) flooded = await stopFlooder(flooder);
        windows[phase] = {
          result,
          latency: summarize(result.latencies),
          serverCpu: (cpuEnd - cpuStart) / options.seconds,
          serverRefused: (await serverRefusals(metricsPort)) - refusedBefore,
        };
        delay = 0;
      }
      return {
        kind,
        way,
        windows,
        opened: pool.opened,
        ...(attacker ? { attacker } : {}),
        ...(flooded ? { flooded } : {}),
      };
    } finally {
      await pool.close();
    }
  } finally {
    await target.dispose();
  }
}

const runsPlanned = targets.length * ways.length * (1 + attackers.length);
bounded(60 + runsPlanned * (options.warmup + 3 * options.seconds + 150), async () => {
  const run = machine();
  const runs: FloodRun[] = [];
  for (const kind of targets) {
    for (const way of ways) {
      for (const attacker of [undefined, ...attackers]) {
        console.log(
          `flood: ${TARGET_LABELS[kind]}, ${way}, ${attacker ? `the ${attacker} flood` : 'no flood'}...`,
        );
        runs.push(await measure(kind, way, attacker));
      }
    }
  }
  const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  record(
    'flood',
    run,
    [
      'target',
      'via',
      'flood',
      'window',
      'matches',
      'moves/s',
      'p50 ms',
      'p99 ms',
      'max ms',
      'server CPU',
      'server refused',
      'flood sent',
      'flood refused',
      'flood connects ok / refused',
      'flooder CPU',
    ],
    runs.flatMap((r) =>
      PHASES.map((phase) => {
        const w = r.windows[phase];
        const f = phase === 'during' ? r.flooded : undefined;
        return [
          TARGET_LABELS[r.kind],
          r.way,
          r.attacker ? `${options.flooders} sockets, ${r.attacker}` : 'none',
          phase,
          r.opened,
          Math.round(w.result.moves / options.seconds),
          ms(w.latency.p50),
          ms(w.latency.p99),
          ms(w.latency.max),
          `${Math.round(w.serverCpu * 100)} %`,
          w.serverRefused,
          f?.sent ?? '',
          f ? total(f.refused) : '',
          f ? `${f.connected} / ${f.connectRefused}` : '',
          f ? `${Math.round(f.cpu * 100)} %` : '',
        ];
      }),
    ),
    {
      matches: options.matches,
      periodMs: options.period,
      flooders: options.flooders,
      runs: runs.map(({ windows, ...r }) => ({
        ...r,
        windows: Object.fromEntries(
          PHASES.map((p) => {
            const { latencies: _, ...rest } = windows[p].result;
            return [p, { ...windows[p], result: rest }];
          }),
        ),
      })),
    },
  );
  for (const kind of targets) {
    for (const way of ways) {
      const quiet = runs.find((r) => r.kind === kind && r.way === way && !r.attacker);
      for (const attacker of attackers) {
        const flood = runs.find((r) => r.kind === kind && r.way === way && r.attacker === attacker);
        if (!quiet || !flood) continue;
        const ratio = flood.windows.during.latency.p99 / quiet.windows.during.latency.p99;
        console.log(
          `${kind} ${way} ${attacker}: p99 during the flood is ${ratio.toFixed(2)}x the same window without it (target: at most 2x)`,
        );
      }
      for (const r of runs.filter((x) => x.kind === kind && x.way === way)) {
        for (const phase of PHASES) {
          const { refused, errors } = r.windows[phase].result;
          const label = `${kind} ${way}${r.attacker ? ` (${r.attacker})` : ''} ${phase}`;
          if (Object.keys(refused).length > 0)
            console.log(`${label}: players refused ${JSON.stringify(refused)}`);
          if (errors.length > 0) console.log(`${label}: errors ${errors.join(' | ')}`);
        }
      }
    }
  }
});
