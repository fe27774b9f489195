/**
 * One address floods, everyone else plays: the move round trip of the other matches with 20
 * sockets from one address (127.0.0.2) sending moves as fast as they can, beside the same run
 * without the flood. The server runs with its production limits (the per-socket message rate
 * too); the players' matches each come from an address of their own; the flooder runs at the
 * lowest CPU priority (nice 19), standing in for a machine of its own.
 *
 *   npx tsx bench/server/flood.ts [-- --matches 50 --period 1000 --flooders 20 --seconds 10 --targets sqlite]
 */
import { type ChildProcess, fork } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { FloodResult } from './client/flooder.ts';
import type { LoadResult } from './client/protocol.ts';
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { ClientPool } from './lib/pool.ts';
import { machine, record } from './lib/report.ts';
import { type LatencySummary, ms, summarize } from './lib/stats.ts';
import { BENCH_DIR, startTarget, TARGET_LABELS, type TargetKind } from './lib/targets.ts';

const options = parseOptions({
  matches: 50,
  period: 1000,
  flooders: 20,
  seconds: 10,
  warmup: 3,
  workers: 2,
});
const targets = process.argv.includes('--targets') ? options.targets : (['sqlite'] as TargetKind[]);
if (targets.some((t) => t !== 'sqlite' && t !== 'postgres')) {
  console.error('--targets: only our server (sqlite, postgres) has limits to measure');
  process.exit(2);
}

/** The production defaults of the limits the other benchmarks raise (apps/server/src/config.ts). */
const PRODUCTION_LIMITS = {
  RATE_LIMIT_PER_SECOND: '10',
  RATE_LIMIT_BURST: '20',
  SOCKETS_PER_ADDRESS: '200',
  SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '10',
};

interface FloodRun {
  kind: TargetKind;
  flood: boolean;
  result: LoadResult;
  latency: LatencySummary;
  serverCpu: number;
  opened: number;
  flooded?: FloodResult;
}

function startFlooder(base: string, sockets: number): Promise<ChildProcess> {
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
    child.send({ type: 'start', task: { base, sockets } });
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

async function measure(kind: TargetKind, flood: boolean): Promise<FloodRun> {
  const target = await startTarget(kind, { cpuProf: options.cpuProf, env: PRODUCTION_LIMITS });
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
      const flooder = flood
        ? await startFlooder(`http://127.0.0.1:${target.port}`, options.flooders)
        : undefined;
      const warmupMs = options.warmup * 1000;
      const windowMs = options.seconds * 1000;
      const start = Date.now() + warmupMs;
      let cpuStart = Number.NaN;
      let cpuEnd = Number.NaN;
      setTimeout(() => (cpuStart = target.cpuSeconds()), warmupMs);
      setTimeout(() => (cpuEnd = target.cpuSeconds()), warmupMs + windowMs);
      const result = await pool.play(start, start + windowMs);
      const flooded = flooder ? await stopFlooder(flooder) : undefined;
      return {
        kind,
        flood,
        result,
        latency: summarize(result.latencies),
        serverCpu: (cpuEnd - cpuStart) / (windowMs / 1000),
        opened: pool.opened,
        ...(flooded ? { flooded } : {}),
      };
    } finally {
      await pool.close();
    }
  } finally {
    await target.dispose();
  }
}

bounded(60 + targets.length * 2 * (options.seconds + options.warmup + 120), async () => {
  const run = machine();
  const runs: FloodRun[] = [];
  for (const kind of targets) {
    for (const flood of [false, true]) {
      console.log(`flood: ${TARGET_LABELS[kind]}, ${flood ? 'with' : 'without'} the flood...`);
      runs.push(await measure(kind, flood));
    }
  }
  const total = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  record(
    'flood',
    run,
    [
      'target',
      'flood',
      'matches',
      'moves/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'server CPU',
      'flood sent',
      'flood refused',
      'flood connects ok / refused',
      'flood sockets at end',
      'flooder CPU',
    ],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      r.flood ? `${options.flooders} sockets` : 'none',
      r.opened,
      Math.round(r.result.moves / options.seconds),
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.max),
      `${Math.round(r.serverCpu * 100)} %`,
      r.flooded?.sent ?? '',
      r.flooded ? total(r.flooded.refused) : '',
      r.flooded ? `${r.flooded.connected} / ${r.flooded.connectRefused}` : '',
      r.flooded?.connectedAtEnd ?? '',
      r.flooded ? `${Math.round(r.flooded.cpu * 100)} %` : '',
    ]),
    {
      matches: options.matches,
      periodMs: options.period,
      flooders: options.flooders,
      runs: runs.map(({ result: { latencies: _, ...rest }, ...r }) => ({ ...r, result: rest })),
    },
  );
  for (const kind of targets) {
    const [quiet, flooded] = [false, true].map((f) =>
      runs.find((r) => r.kind === kind && r.flood === f),
    );
    if (quiet && flooded) {
      const ratio = flooded.latency.p99 / quiet.latency.p99;
      console.log(
        `${kind}: p99 with the flood is ${ratio.toFixed(2)}x the p99 without (target: at most 2x)`,
      );
    }
    for (const r of runs.filter((x) => x.kind === kind)) {
      const refused = Object.entries(r.result.refused);
      if (refused.length > 0)
        console.log(
          `${kind}${r.flood ? ' (flood)' : ''}: players refused ${JSON.stringify(r.result.refused)}`,
        );
      if (r.result.errors.length > 0) console.log(`${kind}: errors ${r.result.errors.join(' | ')}`);
    }
  }
});
