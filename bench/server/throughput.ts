/**
 * Moves per second at saturation: many matches, each moving as soon as the previous move
 * came back, from several client processes; counts the moves completed in the window.
 *
 *   npm run bench:server:throughput [-- --matches 100 --workers 2 --seconds 10 --targets ... --cpu-prof]
 */
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { type LoadRun, measureLoad, problems } from './lib/load.ts';
import { machine, record } from './lib/report.ts';
import { ms, ratio } from './lib/stats.ts';
import { TARGET_LABELS } from './lib/targets.ts';

const options = parseOptions({ matches: 100, workers: 2, seconds: 10, warmup: 3 });

bounded(60 + options.targets.length * (options.seconds + options.warmup + 90), async () => {
  const run = machine();
  const { frame } = sampleFrame();
  const runs: LoadRun[] = [];
  for (const kind of options.targets) {
    console.log(`throughput: ${TARGET_LABELS[kind]}...`);
    runs.push(
      await measureLoad(kind, {
        mode: 'closed',
        workers: options.workers,
        matches: options.matches,
        frame,
        warmupMs: options.warmup * 1000,
        windowMs: options.seconds * 1000,
        cpuProf: options.cpuProf,
      }),
    );
  }
  const rateOf = (kind: string) => runs.find((r) => r.kind === kind)?.movesPerSecond ?? Number.NaN;
  const stock = rateOf('stock');
  const stockIC = rateOf('stock-ic');
  record(
    'throughput',
    run,
    [
      'target',
      'moves/s',
      'p50 ms',
      'p99 ms',
      'server CPU',
      'CPU ms/move',
      'matches replaced',
      'moves/s / stock',
      'moves/s / stock-ic',
    ],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      Math.round(r.movesPerSecond),
      ms(r.latency.p50),
      ms(r.latency.p99),
      `${Math.round(r.serverCpu * 100)} %`,
      r.cpuPerMove.toFixed(2),
      r.result.replaced,
      ratio(r.movesPerSecond, stock),
      ratio(r.movesPerSecond, stockIC),
    ]),
    {
      matches: options.matches,
      workers: options.workers,
      runs: runs.map(({ result: { latencies: _, ...rest }, ...r }) => ({ ...r, result: rest })),
    },
  );
  console.log(
    `\n${options.matches} matches from ${options.workers} client processes; echo moves are echoes of one frame`,
  );
  for (const r of runs) for (const p of problems(r)) console.log(`${r.kind}: ${p}`);
});
