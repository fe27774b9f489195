/**
 * Moves per second at saturation: many matches, each moving as soon as the previous move
 * came back, from several client processes; counts the moves completed in the window.
 * With --rounds N the targets run N times in turn, and each ratio is taken against the
 * anchors of its own round, then the median of the rounds is reported: on a shared 2-core
 * machine one build's ratio to stock-ic swung by 0.2 between single runs.
 *
 *   npm run bench:server:throughput [-- --matches 100 --workers 2 --seconds 10 --rounds 1 --targets ... --cpu-prof]
 */
import { parseOptions } from './lib/args.ts';
import { bounded } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { type LoadRun, measureLoad, problems } from './lib/load.ts';
import { machine, record } from './lib/report.ts';
import { median, ms, ratio } from './lib/stats.ts';
import { TARGET_LABELS } from './lib/targets.ts';

const options = parseOptions({ matches: 100, workers: 2, seconds: 10, warmup: 3, rounds: 1 });
const rounds = Math.floor(options.rounds);

bounded(
  60 + rounds * options.targets.length * (options.seconds + options.warmup + 90),
  async () => {
    const run = machine();
    const { frame } = sampleFrame();
    const runs: (LoadRun & { round: number })[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const kind of options.targets) {
        console.log(`throughput: round ${round} of ${rounds}, ${TARGET_LABELS[kind]}...`);
        const measured = await measureLoad(kind, {
          mode: 'closed',
          workers: options.workers,
          matches: options.matches,
          frame,
          warmupMs: options.warmup * 1000,
          windowMs: options.seconds * 1000,
          cpuProf: options.cpuProf,
        });
        runs.push({ ...measured, round });
      }
    }
    /** A run's moves/s over the same round's run of `anchor`. */
    const against = (r: LoadRun & { round: number }, anchor: string) =>
      r.movesPerSecond /
      (runs.find((a) => a.round === r.round && a.kind === anchor)?.movesPerSecond ?? Number.NaN);
    record(
      'throughput',
      run,
      [
        'round',
        'target',
        'moves/s',
        'p50 ms',
        'p99 ms',
        'server CPU',
        'CPU ms/move',
        'clients CPU ms/move',
        'matches replaced',
        'moves/s / stock',
        'moves/s / stock-ic',
      ],
      runs.map((r) => [
        r.round,
        TARGET_LABELS[r.kind],
        Math.round(r.movesPerSecond),
        ms(r.latency.p50),
        ms(r.latency.p99),
        `${Math.round(r.serverCpu * 100)} %`,
        r.cpuPerMove.toFixed(2),
        r.clientCpuPerMove.toFixed(2),
        r.result.replaced,
        ratio(against(r, 'stock'), 1),
        ratio(against(r, 'stock-ic'), 1),
      ]),
      {
        matches: options.matches,
        workers: options.workers,
        rounds,
        runs: runs.map(({ result: { latencies: _, ...rest }, ...r }) => ({ ...r, result: rest })),
      },
    );
    if (rounds > 1) {
      const spread = (values: number[]) =>
        values.every(Number.isFinite)
          ? `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}x`
          : 'n/a';
      console.log(`\nmedian of ${rounds} rounds (ratios taken within each round):\n`);
      record(
        'throughput-median',
        machine(),
        [
          'target',
          'moves/s',
          'CPU ms/move',
          'clients CPU ms/move',
          '/ stock',
          '/ stock-ic',
          '/ stock-ic, range',
        ],
        options.targets.map((kind) => {
          const mine = runs.filter((r) => r.kind === kind);
          const toStockIC = mine.map((r) => against(r, 'stock-ic'));
          return [
            TARGET_LABELS[kind],
            Math.round(median(mine.map((r) => r.movesPerSecond))),
            median(mine.map((r) => r.cpuPerMove)).toFixed(2),
            median(mine.map((r) => r.clientCpuPerMove)).toFixed(2),
            ratio(median(mine.map((r) => against(r, 'stock'))), 1),
            ratio(median(toStockIC), 1),
            spread(toStockIC),
          ];
        }),
        { rounds },
      );
    }
    console.log(
      `\n${options.matches} matches from ${options.workers} client processes; echo moves are echoes of one frame`,
    );
    for (const r of runs) for (const p of problems(r)) console.log(`${r.kind}: ${p}`);
  },
);
