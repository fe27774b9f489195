/**
 * Move round trip at one match: one client process plays one match move after move
 * (a new match when one ends); the round trip runs from sending a move to the mover
 * receiving the resulting state.
 *
 *   npm run bench:server:rtt [-- --seconds 10 --targets echo,stock,stock-ic,sqlite,postgres --cpu-prof]
 */
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { type LoadRun, measureLoad, problems } from './lib/load.ts';
import { machine, record } from './lib/report.ts';
import { ms, ratio } from './lib/stats.ts';
import { TARGET_LABELS } from './lib/targets.ts';

const options = parseOptions({ seconds: 10, warmup: 2, workers: 1 });

bounded(60 + options.targets.length * (options.seconds + options.warmup + 30), async () => {
  const run = machine();
  const { frame, bytes } = sampleFrame();
  const runs: LoadRun[] = [];
  for (const kind of options.targets) {
    console.log(`rtt: ${TARGET_LABELS[kind]}...`);
    runs.push(
      await measureLoad(kind, {
        mode: 'closed',
        workers: 1,
        matches: 1,
        frame,
        warmupMs: options.warmup * 1000,
        windowMs: options.seconds * 1000,
        cpuProf: options.cpuProf,
      }),
    );
  }
  const echo = runs.find((r) => r.kind === 'echo')?.latency.p50 ?? Number.NaN;
  record(
    'rtt',
    run,
    ['target', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'moves', 'CPU ms/move', 'p50 / echo p50'],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      ms(r.latency.p50),
      ms(r.latency.p95),
      ms(r.latency.p99),
      ms(r.latency.max),
      r.result.moves,
      r.cpuPerMove.toFixed(2),
      ratio(r.latency.p50, echo),
    ]),
    {
      frameBytes: bytes,
      runs: runs.map(({ result: { latencies: _, ...rest }, ...r }) => ({ ...r, result: rest })),
    },
  );
  console.log(`\necho payload: one update frame, ${bytes} bytes of JSON`);
  for (const r of runs) for (const p of problems(r)) console.log(`${r.kind}: ${p}`);
});
