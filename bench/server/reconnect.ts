/**
 * Reconnect storm: 2,000 connected clients (1,000 matches, one move made in each), then
 * the server is restarted (SIGTERM, a new process on the same port and data). Measures
 * the share of sockets synced again and the time until the last one was.
 *
 *   npm run bench:server:reconnect [-- --matches 1000 --workers 2 --limit 30 --targets ...]
 *
 * BENCH_PLAIN_CLIENT=1: clients do not reconnect after a server-side disconnect themselves
 * (socket.io-client's own behaviour, which apps/web's transport relies on).
 */
import { parseOptions } from './lib/args.ts';
import { bounded, sleep } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { ClientPool } from './lib/pool.ts';
import { machine, record } from './lib/report.ts';
import { startTarget, TARGET_LABELS, type TargetKind } from './lib/targets.ts';

const options = parseOptions({ matches: 1000, workers: 2, limit: 30 });
const plainClient = process.env.BENCH_PLAIN_CLIENT === '1';

interface StormRun {
  kind: TargetKind;
  sockets: number;
  synced: number;
  /** From SIGTERM to the new process listening, ms. */
  restartMs: number;
  /** From SIGTERM to the last socket synced again, ms (when all were). */
  allMs: number;
  matchesKept: number;
  matches: number;
  serverDisconnects: number;
}

bounded(60 + options.targets.length * (options.limit + 240), async () => {
  const run = machine();
  const { frame } = sampleFrame();
  const runs: StormRun[] = [];
  for (const kind of options.targets) {
    console.log(`reconnect: ${TARGET_LABELS[kind]}...`);
    const target = await startTarget(kind, { cpuProf: options.cpuProf });
    try {
      const pool = await ClientPool.open(target, {
        mode: 'storm',
        workers: options.workers,
        matches: options.matches,
        frame,
        warmMoves: 1,
        reconnectOnServerDisconnect: !plainClient,
      });
      const sockets = pool.opened * 2;
      let synced = sockets;
      let allAt = Number.NaN;
      let t0 = Number.NaN;
      pool.onProgress((n) => {
        synced = n;
        if (Number.isFinite(t0) && n === sockets && Number.isNaN(allAt)) allAt = Date.now();
      });
      await sleep(1000);
      pool.mark();
      await sleep(200);
      t0 = Date.now();
      await target.restart();
      const restartMs = Date.now() - t0;
      const deadline = t0 + options.limit * 1000;
      while (Date.now() < deadline && (synced < sockets || Number.isNaN(allAt))) await sleep(100);
      const storm = await pool.report();
      const last = Math.max(...storm.resyncTimes);
      runs.push({
        kind,
        sockets,
        synced: storm.synced,
        restartMs,
        allMs:
          storm.synced === sockets && storm.resyncTimes.length >= sockets ? last - t0 : Number.NaN,
        matchesKept: storm.matchesKept,
        matches: pool.opened,
        serverDisconnects: storm.serverDisconnects,
      });
      await pool.close();
    } finally {
      await target.dispose();
    }
  }
  record(
    'reconnect',
    run,
    [
      'target',
      'sockets',
      'resynced',
      'restart s',
      'all resynced after s',
      'state kept',
      "'io server disconnect'",
    ],
    runs.map((r) => [
      TARGET_LABELS[r.kind],
      r.sockets,
      `${((100 * r.synced) / r.sockets).toFixed(1)} %`,
      (r.restartMs / 1000).toFixed(2),
      Number.isFinite(r.allMs) ? (r.allMs / 1000).toFixed(2) : `not all in ${options.limit} s`,
      r.kind === 'echo' ? 'n/a' : `${r.matchesKept} of ${r.matches}`,
      r.serverDisconnects,
    ]),
    { matches: options.matches, limitS: options.limit, plainClient, runs },
  );
  console.log(
    `\ntimes from SIGTERM; 'io server disconnect': sockets the server closed on purpose, which socket.io-client does not reconnect by itself (${plainClient ? 'nor did the clients here: BENCH_PLAIN_CLIENT=1' : 'the bench client does'})`,
  );
});
