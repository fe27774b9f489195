/**
 * A client process: opens its share of matches against one server and plays them as
 * told by the benchmark over IPC. Load never comes from the benchmark's own process.
 */
import { createDriver, type MatchDriver, type Tally } from './drivers.ts';
import type { FromWorker, LoadResult, Task, ToWorker } from './protocol.ts';

const send = (message: FromWorker) => process.send?.(message);
const tally: Tally = { serverDisconnects: 0 };
const errors: string[] = [];
const noteError = (error: unknown) => {
  if (errors.length < 20) errors.push(error instanceof Error ? error.message : String(error));
};

let task: Task | undefined;
let drivers: (MatchDriver | undefined)[] = [];

async function openAll(t: Task): Promise<void> {
  const started = performance.now();
  drivers = new Array(t.matches).fill(undefined);
  let next = 0;
  const lane = async () => {
    while (next < t.matches) {
      const i = next++;
      const driver = createDriver(t.ctx, tally);
      try {
        await driver.open();
        for (let m = 0; m < t.warmMoves; m++) await driver.step();
        drivers[i] = driver;
      } catch (error) {
        noteError(error);
        driver.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(t.openConcurrency, t.matches) }, lane));
  send({
    type: 'ready',
    opened: drivers.filter(Boolean).length,
    openMs: performance.now() - started,
    errors: [...errors],
  });
}

async function play(t: Task, start: number, end: number): Promise<LoadResult> {
  const result: LoadResult = {
    latencies: [],
    moves: 0,
    refused: {},
    errors: [],
    replaced: 0,
    skipped: 0,
  };
  const stepOnce = async (i: number) => {
    const driver = drivers[i];
    if (!driver) return;
    try {
      const outcome = await driver.step();
      const now = Date.now();
      if (outcome.kind === 'moved' && now >= start && now <= end) {
        result.moves += 1;
        result.latencies.push(outcome.rtt);
      } else if (outcome.kind === 'refused') {
        result.refused[outcome.code] = (result.refused[outcome.code] ?? 0) + 1;
      } else if (outcome.kind === 'over') {
        await replace(i);
        result.replaced += 1;
      }
    } catch (error) {
      noteError(error);
      await replace(i);
      result.replaced += 1;
    }
  };
  const replace = async (i: number) => {
    drivers[i]?.close();
    drivers[i] = undefined;
    const driver = createDriver(t.ctx, tally);
    try {
      await driver.open();
      drivers[i] = driver;
    } catch (error) {
      noteError(error);
      driver.close();
    }
  };

  if (t.mode === 'closed') {
    await Promise.all(
      drivers.map(async (_d, i) => {
        while (Date.now() < end && drivers[i]) await stepOnce(i);
      }),
    );
  } else {
    await Promise.all(
      drivers.map(
        (_d, i) =>
          new Promise<void>((resolve) => {
            let busy = false;
            const tick = () => {
              if (Date.now() >= end) {
                clearInterval(timer);
                const wait = setInterval(() => {
                  if (!busy) {
                    clearInterval(wait);
                    resolve();
                  }
                }, 50);
                return;
              }
              if (busy) {
                if (Date.now() >= start) result.skipped += 1;
                return;
              }
              busy = true;
              void stepOnce(i).finally(() => {
                busy = false;
              });
            };
            let timer: NodeJS.Timeout | undefined;
            setTimeout(() => {
              tick();
              timer = setInterval(tick, t.periodMs);
            }, Math.random() * t.periodMs);
          }),
      ),
    );
  }
  result.errors = [...errors];
  return result;
}

function storm(): void {
  const resyncTimes: number[] = [];
  let marked = false;
  const before = new Map<MatchDriver, number>();
  for (const d of drivers) {
    if (!d) continue;
    d.onResync((at) => {
      if (marked) resyncTimes.push(at);
    });
  }
  const synced = () => drivers.reduce((n, d) => n + (d?.syncedSockets() ?? 0), 0);
  const progress = setInterval(() => send({ type: 'progress', synced: synced() }), 100);
  process.on('message', (message: ToWorker) => {
    if (message.type === 'mark') {
      marked = true;
      for (const d of drivers) if (d) before.set(d, d.stateKey());
    } else if (message.type === 'report') {
      clearInterval(progress);
      let kept = 0;
      // A match whose seats never synced again has kept nothing a player can see.
      for (const [d, key] of before) if (d.syncedSockets() === 2 && d.stateKey() === key) kept += 1;
      send({
        type: 'storm',
        result: {
          sockets: drivers.filter(Boolean).length * 2,
          synced: synced(),
          resyncTimes,
          matchesKept: kept,
          serverDisconnects: tally.serverDisconnects,
        },
      });
    }
  });
}

process.on('message', (message: ToWorker) => {
  void (async () => {
    if (message.type === 'task') {
      task = message.task;
      await openAll(task);
      if (task.mode === 'storm') storm();
    } else if (message.type === 'go' && task) {
      const result = await play(task, message.start, message.end);
      send({ type: 'load', result });
    } else if (message.type === 'stop') {
      for (const d of drivers) d?.close();
      process.exit(0);
    }
  })().catch((error) => {
    send({
      type: 'fatal',
      message: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    process.exit(1);
  });
});
process.on('disconnect', () => process.exit(0));
