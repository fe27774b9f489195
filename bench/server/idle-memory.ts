/**
 * Server memory per idle match: RSS of the server process before and after opening
 * 5,000 matches with both seats connected and synced (10,000 sockets), after a warm-up
 * of 100 matches so start-up allocations are not counted.
 *
 *   npm run bench:server:idle-memory [-- --matches 5000 --workers 4 --settle 5 --targets ... --collect]
 *
 * With --collect, every server runs a full garbage collection before each reading, and the
 * table adds the growth of its live JS heap per match: what the server keeps, without the slack
 * a heap holds until V8's next major collection (which swings the RSS figure by a third between
 * runs).
 */
import { parseOptions } from './lib/args.ts';
import { bounded, sleep } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { ClientPool } from './lib/pool.ts';
import { machine, record } from './lib/report.ts';
import {
  type CollectedMemory,
  startTarget,
  TARGET_LABELS,
  type TargetKind,
} from './lib/targets.ts';

const options = parseOptions({ matches: 5000, workers: 4, settle: 5, warm: 100 });

interface MemoryRun {
  kind: TargetKind;
  opened: number;
  baseline: number;
  after: number;
  /** With --collect: the memory after a full collection, before and after. */
  collected?: { baseline: CollectedMemory; after: CollectedMemory };
  openMs: number;
  errors: string[];
}

const MiB = 2 ** 20;
const perMatch = (bytes: number, matches: number) => (bytes / matches / 1000).toFixed(1);

bounded(60 + options.targets.length * 420, async () => {
  const run = machine();
  const { frame } = sampleFrame();
  const runs: MemoryRun[] = [];
  for (const kind of options.targets) {
    console.log(`idle-memory: ${TARGET_LABELS[kind]}...`);
    const target = await startTarget(kind, { cpuProf: options.cpuProf, collect: options.collect });
    const reading = async () => ({
      collected: options.collect ? await target.collect() : undefined,
      rss: target.rss(),
    });
    try {
      const warm = await ClientPool.open(target, {
        mode: 'idle',
        workers: 1,
        matches: options.warm,
        frame,
      });
      await sleep(options.settle * 1000);
      const baseline = await reading();
      const pool = await ClientPool.open(target, {
        mode: 'idle',
        workers: options.workers,
        matches: options.matches,
        frame,
      });
      await sleep(options.settle * 1000);
      const after = await reading();
      runs.push({
        kind,
        opened: pool.opened,
        baseline: baseline.rss,
        after: after.rss,
        ...(baseline.collected && after.collected
          ? { collected: { baseline: baseline.collected, after: after.collected } }
          : {}),
        openMs: pool.openMs,
        errors: pool.errors,
      });
      await pool.close();
      await warm.close();
    } finally {
      await target.dispose();
    }
  }
  record(
    'idle-memory',
    run,
    [
      'target',
      'idle matches',
      'RSS before MiB',
      'RSS after MiB',
      'per match kB',
      ...(options.collect ? ['live heap per match kB'] : []),
      'set-up s',
    ],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      r.opened,
      (r.baseline / MiB).toFixed(0),
      (r.after / MiB).toFixed(0),
      perMatch(r.after - r.baseline, r.opened),
      ...(r.collected
        ? [perMatch(r.collected.after.heapUsed - r.collected.baseline.heapUsed, r.opened)]
        : []),
      (r.openMs / 1000).toFixed(1),
    ]),
    { matches: options.matches, runs },
  );
  console.log('\nper match: RSS growth / matches opened (both seats connected and synced)');
  for (const r of runs)
    if (r.errors.length > 0) console.log(`${r.kind}: ${r.errors.slice(0, 3).join(' | ')}`);
});
