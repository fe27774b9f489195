/**
 * Latency under a steady crowd: every match moves once per period (2 s by default), at a
 * random phase, from several client processes; 2,000 matches are 4,000 sockets.
 *
 *   npm run bench:server:concurrent [-- --matches 2000 --period 2000 --seconds 20 --workers 4 --targets ...]
 */
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { type LoadRun, measureLoad, problems } from './lib/load.ts';
import { machine, record } from './lib/report.ts';
import { ms } from './lib/stats.ts';
import { TARGET_LABELS } from './lib/targets.ts';

const options = parseOptions({ matches: 2000, period: 2000, seconds: 20, warmup: 4, workers: 4 });

bounded(60 + options.targets.length * (options.seconds + options.warmup + 240), async () => {
  const run = machine();
  const { frame } = sampleFrame();
  const runs: LoadRun[] = [];
  for (const kind of options.targets) {
    console.log(`concurrent: ${TARGET_LABELS[kind]}...`);
    runs.push(
      await measureLoad(kind, {
        mode: 'paced',
        workers: options.workers,
        matches: options.matches,
        periodMs: options.period,
        frame,
        warmupMs: options.warmup * 1000,
        windowMs: options.seconds * 1000,
        cpuProf: options.cpuProf,
      }),
    );
  }
  record(
    'concurrent',
    run,
    [
      'target',
      'matches',
      'moves/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'max ms',
      'late ticks',
      'server CPU',
      'CPU ms/move',
      'set-up s',
    ],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      r.opened,
      Math.round(r.movesPerSecond),
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.max),
      r.result.skipped,
      `${Math.round(r.serverCpu * 100)} %`,
      r.cpuPerMove.toFixed(2),
      (r.openMs / 1000).toFixed(1),
    ]),
    {
      matches: options.matches,
      periodMs: options.period,
      workers: options.workers,
      runs: runs.map(({ result: { latencies: _, ...rest }, ...r }) => ({ ...r, result: rest })),
    },
  );
  console.log(
    `\neach match moves once per ${options.period} ms; 'late ticks': a tick found the match's previous move still in flight`,
  );
  for (const r of runs) for (const p of problems(r)) console.log(`${r.kind}: ${p}`);
});
