/**
 * A client process of the crowd benchmark (bench/server/crowd.ts): the matches that play
 * (the watched one and the others, on the usual match drivers), or a share of the crowd.
 * A spectator does nothing but hold its state id and count the frames it receives, on a
 * codec that does not parse them (counting-parser.ts), so that thousands fit in a process.
 * Times are epoch milliseconds with sub-millisecond precision (performance.timeOrigin +
 * performance.now()), comparable across the benchmark's processes on one machine.
 */
import { io, type Socket } from 'socket.io-client';
import { returnAfterRestart } from '../../../apps/web/src/match/restart-return.ts';
import { countingParser, type UpdateHead } from './counting-parser.ts';
import type {
  CrowdPhase,
  CrowdReport,
  FromCrowdWorker,
  ToCrowdWorker,
  WatchedMove,
} from './crowd-protocol.ts';
import {
  createDriver,
  type DriverContext,
  type MatchDriver,
  OurMatch,
  type Tally,
} from './drivers.ts';

const send = (message: FromCrowdWorker) => process.send?.(message);
const now = () => performance.timeOrigin + performance.now();
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

const tally: Tally = { serverDisconnects: 0 };
let phase: CrowdPhase = 'quiet';
const report: CrowdReport = {
  others: [],
  watched: [],
  arrivals: {},
  frames: {},
  cpu: [{ phase, at: now(), seconds: cpuSeconds() }],
  spectators: 0,
  synced: 0,
  connectErrors: {},
  restartErrorTimes: [],
  refused: {},
  errors: [],
};
const noteError = (error: unknown) => {
  if (report.errors.length < 20) {
    report.errors.push(error instanceof Error ? error.message : String(error));
  }
};

let ctx: DriverContext | undefined;
let periodMs = 250;
const others: (MatchDriver | undefined)[] = [];
let watched: OurMatch | undefined;
let playing = false;
let watchTimer: NodeJS.Timeout | undefined;

async function openPlayers(message: Extract<ToCrowdWorker, { type: 'players' }>): Promise<void> {
  ctx = message.ctx;
  periodMs = message.periodMs;
  const errors: string[] = [];
  if (message.watched) {
    watched = new OurMatch(ctx, tally);
    await watched.open();
  }
  const opened = await Promise.all(
    Array.from({ length: message.matches }, async () => {
      const driver = createDriver(message.ctx, tally);
      try {
        await driver.open();
        return driver;
      } catch (error) {
        errors.push(error instanceof Error ? error.message : String(error));
        driver.close();
        return undefined;
      }
    }),
  );
  others.push(...opened);
  send({
    type: 'ready',
    ...(watched ? { watchedID: watched.id } : {}),
    opened: opened.filter(Boolean).length,
    errors,
  });
}

/** A match that ended, or whose move failed, is replaced by a new one. */
async function replace(i: number): Promise<void> {
  if (!ctx) return;
  others[i]?.close();
  others[i] = undefined;
  const driver = createDriver(ctx, tally);
  try {
    await driver.open();
    others[i] = driver;
  } catch (error) {
    noteError(error);
    driver.close();
  }
}

/** Each other match moves once per period at a random phase, skipping a tick while its move is out. */
function playOthers(): void {
  playing = true;
  others.forEach((_d, i) => {
    let busy = false;
    const tick = async () => {
      const driver = others[i];
      if (!playing || busy || !driver) return;
      busy = true;
      try {
        const outcome = await driver.step();
        if (outcome.kind === 'moved') report.others.push([now(), outcome.rtt]);
        else if (outcome.kind === 'refused') {
          report.refused[outcome.code] = (report.refused[outcome.code] ?? 0) + 1;
        } else await replace(i);
      } catch (error) {
        noteError(error);
        await replace(i);
      } finally {
        busy = false;
      }
    };
    setTimeout(() => {
      void tick();
      setInterval(() => void tick(), periodMs);
    }, Math.random() * periodMs);
  });
}

/** The watched match moves once per period while told to; a finished match stops moving. */
function watch(moving: boolean): void {
  clearInterval(watchTimer);
  watchTimer = undefined;
  const match = watched;
  if (!moving || !match) return;
  let busy = false;
  watchTimer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const outcome = await match.step();
      const sent = match.lastSent;
      if (outcome.kind === 'moved' && sent) {
        const move: WatchedMove = { from: sent.from, sentAt: sent.at, ack: outcome.rtt };
        report.watched.push(move);
      } else if (outcome.kind === 'refused') {
        report.refused[outcome.code] = (report.refused[outcome.code] ?? 0) + 1;
      } else if (outcome.kind === 'over') {
        clearInterval(watchTimer);
      }
    } catch (error) {
      noteError(error);
    } finally {
      busy = false;
    }
  }, periodMs);
}

const spectators: Socket[] = [];
const synced = new Set<Socket>();
let lastSyncAt = 0;
let framesReceived = 0;

function count(event: string): void {
  framesReceived += 1;
  const frames = report.frames[phase] ?? {};
  frames[event] = (frames[event] ?? 0) + 1;
  report.frames[phase] = frames;
}

function openSpectators(message: Extract<ToCrowdWorker, { type: 'spectators' }>): void {
  const { base, matchID, first, count: n, addresses, spread } = message;
  const parser = countingParser(count);
  for (let k = 0; k < n; k++) {
    const i = first + k;
    const socket = io(`${base}/game`, {
      transports: ['websocket'],
      reconnectionDelay: 250,
      reconnectionDelayMax: 4000,
      forceNew: true,
      parser,
      localAddress: addresses[i % addresses.length],
      query: spread ? { matchID, spread: String(i) } : { matchID },
    } as Parameters<typeof io>[1]);
    socket.on('connect', () => socket.emit('sync', { matchID, playerID: null }));
    socket.on('connect_error', () => {
      report.connectErrors[phase] = (report.connectErrors[phase] ?? 0) + 1;
      if (phase === 'restart') report.restartErrorTimes.push(now());
    });
    socket.on('sync', () => {
      synced.add(socket);
      lastSyncAt = now();
    });
    socket.on('update', (update: UpdateHead) => {
      const arrivals = report.arrivals[update.from] ?? [];
      arrivals.push(now());
      report.arrivals[update.from] = arrivals;
    });
    // As the web client: a server shutting down says when to come back (its own code);
    // a server-side disconnect is not retried by socket.io-client itself.
    socket.on('restarting', (notice: unknown) => returnAfterRestart(socket, notice));
    socket.on('disconnect', (reason) => {
      synced.delete(socket);
      if (reason === 'io server disconnect') {
        tally.serverDisconnects += 1;
        setTimeout(() => socket.connect(), 500 * (0.5 + Math.random()));
      }
    });
    spectators.push(socket);
  }
  report.spectators += n;
  setInterval(
    () => send({ type: 'progress', synced: synced.size, lastSyncAt, frames: framesReceived }),
    100,
  );
}

process.on('message', (message: ToCrowdWorker) => {
  void (async () => {
    switch (message.type) {
      case 'players':
        await openPlayers(message);
        break;
      case 'go':
        playOthers();
        break;
      case 'watch':
        watch(message.moving);
        break;
      case 'spectators':
        openSpectators(message);
        break;
      case 'phase':
        phase = message.phase;
        report.cpu.push({ phase, at: now(), seconds: cpuSeconds() });
        break;
      case 'report':
        playing = false;
        watch(false);
        report.synced = synced.size;
        report.cpu.push({ phase, at: now(), seconds: cpuSeconds() });
        send({ type: 'report', report });
        break;
      case 'stop':
        for (const d of others) d?.close();
        watched?.close();
        for (const s of spectators) s.close();
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
send({ type: 'loaded' });
