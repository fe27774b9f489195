/**
 * A crowd watching one match: N spectators (5,000 by default) join one match at once from 50
 * loopback addresses (127.0.0.10-59, the sockets' local address), while 20 other matches play
 * (a move every 250 ms each). One run, in phases, on one server (or two behind nginx):
 *
 *   quiet    the other matches and the watched match play, nobody watches (the baseline);
 *   join     the crowd connects, until every spectator is synced (or --join-limit);
 *   settle   until the spectators receive no more frames for 1 s (the join's tail);
 *   play     the watched match moves every period under the crowd's eyes;
 *   restart  SIGTERM to the server (behind nginx: to each server in turn, or with
 *            `--restart first` to the first only) and a new process on the same port and
 *            data; until the whole crowd is synced again.
 *
 * It reports the time until all are synced, every frame the spectators received while joining
 * by event name (presence above all), each watched move's time until each spectator has it
 * (from the moment the mover sends it), the mover's acknowledgement, the other matches' round
 * trips in each phase beside the quiet one, the server's CPU and the client processes' CPU
 * (the clients must not be the bottleneck), and the crowd's time back after the restart.
 * Per phase also the server's event-loop delay and how much of the phase the server's and the
 * players' main threads waited for a core: on a shared 2-core machine the clients' processes
 * compete with the server, and `--crowd-nice N` runs the spectators' processes at that nice
 * level to tell the server's own delays from that waiting; `--crowd-sched idle` runs them
 * under SCHED_IDLE, so that they take only what the server and the players leave of the cores,
 * as 5,000 spectators' machines would.
 *
 * The server's per-address socket limits are raised (lib/targets.ts does for every benchmark):
 * this measures the crowd, not the limits. `--via nginx`: two servers on Postgres + Redis
 * behind deploy/nginx.conf, its per-address limits raised likewise, and the game sockets
 * hashed on the match id and each spectator's index (`spread` in the handshake query) instead
 * of the match id alone, which would send the whole crowd of one match to one server.
 *
 *   npm run bench:server:crowd [-- --spectators 5000 --others 20 --period 250 --workers 4
 *     --quiet 10 --play 10 --join-limit 60 --restart-limit 60 --crowd-nice 0 --crowd-sched other
 *     --via direct,nginx
 *     --targets sqlite --restart each]
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startNginx } from '../../apps/server/test/nginx.ts';
import type {
  CrowdPhase,
  CrowdReport,
  FromCrowdWorker,
  ToCrowdWorker,
} from './client/crowd-protocol.ts';
import { parseOptions } from './lib/args.ts';
import { bounded, sleep } from './lib/bounded.ts';
import { sampleFrame } from './lib/frame.ts';
import { machine, record } from './lib/report.ts';
import { type LatencySummary, ms, ratio, summarize } from './lib/stats.ts';
import { BENCH_DIR, startTarget, type Target, type TargetKind } from './lib/targets.ts';

const options = parseOptions(
  {
    spectators: 5000,
    others: 20,
    period: 250,
    workers: 4,
    quiet: 10,
    play: 10,
    'join-limit': 60,
    'settle-limit': 30,
    'restart-limit': 60,
  },
  // A word, not a number: the numeric options must be positive, and 0 (not niced) is the default.
  { via: 'direct', 'crowd-nice': '0', 'crowd-sched': 'other', restart: 'each' },
);
const crowdNice = Number(options.lists['crowd-nice'][0]);
if (!Number.isInteger(crowdNice) || crowdNice < 0 || crowdNice > 19) {
  console.error('--crowd-nice: expected a nice level from 0 to 19');
  process.exit(2);
}
const crowdSched = options.lists['crowd-sched'][0];
if (crowdSched !== 'other' && crowdSched !== 'idle') {
  console.error('--crowd-sched: expected other (the default) or idle');
  process.exit(2);
}
const targets = process.argv.includes('--targets') ? options.targets : (['sqlite'] as TargetKind[]);
if (targets.some((t) => t !== 'sqlite' && t !== 'postgres')) {
  console.error('--targets: the crowd watches our server only (sqlite, postgres)');
  process.exit(2);
}
const WAYS = ['direct', 'nginx'] as const;
type Way = (typeof WAYS)[number];
const ways = options.lists.via as Way[];
for (const w of ways) {
  if (!(WAYS as readonly string[]).includes(w)) {
    console.error(`--via: unknown way '${w}' (known: ${WAYS.join(', ')})`);
    process.exit(2);
  }
}
const RESTARTS = ['each', 'first'] as const;
const restartOnly = options.lists.restart.join(',');
if (!(RESTARTS as readonly string[]).includes(restartOnly)) {
  console.error(`--restart: '${restartOnly}' (known: ${RESTARTS.join(', ')})`);
  process.exit(2);
}
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const ADDRESSES = Array.from({ length: 50 }, (_, i) => `127.0.0.${10 + i}`);
const WORKER = path.join(BENCH_DIR, 'client/crowd-worker.ts');

/** The goals (issue 38), printed beside the figures. */
const GOALS = {
  joinMs: 10_000,
  spectatorP99: 250,
  ackP99: 20,
  othersRatio: 2,
  backMs: 10_000,
};

const now = () => performance.timeOrigin + performance.now();

/** The servers (one, or two behind nginx) as one target: CPU summed, restarted in turn. */
async function serve(
  kind: TargetKind,
  way: Way,
): Promise<{ target: Target; backends: Target[]; metricsPorts: number[] }> {
  if (way === 'direct') {
    const metricsPort = await freePort();
    const target = await startTarget(kind, {
      cpuProf: options.cpuProf,
      env: { METRICS_PORT: String(metricsPort) },
    });
    return { target, backends: [target], metricsPorts: [metricsPort] };
  }
  const schema = `bench_crowd_${process.pid}_${Date.now()}`;
  const metricsPorts = [await freePort(), await freePort()];
  const env = (i: number) => ({
    REDIS_URL,
    TRUST_PROXY: 'true',
    METRICS_PORT: String(metricsPorts[i]),
  });
  const backends = [
    await startTarget('postgres', { cpuProf: options.cpuProf, env: env(0), schema }),
    await startTarget('postgres', { cpuProf: options.cpuProf, env: env(1), schema }),
  ];
  const nginx = await startNginx(
    backends.map((b) => `127.0.0.1:${b.port}`),
    (config) =>
      config
        .replace(/limit_conn sockets_per_address \d+;/, 'limit_conn sockets_per_address 60000;')
        .replace(/rate=\d+r\/s;/, 'rate=100000r/s;')
        .replace(/burst=\d+[^;]*;/, 'burst=100000 nodelay;')
        .replace('hash $arg_matchID consistent;', 'hash $arg_matchID$arg_spread consistent;'),
  );
  const target: Target = {
    kind: 'postgres',
    port: Number(new URL(nginx.url).port),
    pid: nginx.child.pid ?? -1,
    rss: () => backends.reduce((sum, b) => sum + b.rss(), 0),
    collect: () => Promise.reject(new Error('not collected')),
    cpuSeconds: () => backends.reduce((sum, b) => sum + b.cpuSeconds(), 0),
    stop: async () => {
      await nginx.stop();
      await Promise.all(backends.map((b) => b.stop()));
    },
    // 'first': one server's restart while the other stays up (a crash's or a deploy's single
    // step); 'each': the rolling restart, the second once the first listens again.
    restart: async () => {
      for (const b of restartOnly === 'first' ? backends.slice(0, 1) : backends) await b.restart();
    },
    dispose: async () => {
      await nginx.stop();
      for (const b of backends) await b.dispose();
    },
  };
  return { target, backends, metricsPorts };
}

/**
 * How long a process's main thread has waited for a core so far (ms): the run-queue time in
 * /proc/<pid>/task/<pid>/schedstat. NaN if unreadable.
 */
function queuedMs(pid: number | undefined): number {
  try {
    const wait = fs.readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[1];
    return Number(wait) / 1e6;
  } catch {
    return Number.NaN;
  }
}

/**
 * The servers' event-loop delay since the last reading, the worst of them (ms): prom-client's
 * default metrics, whose histogram (10-ms resolution) restarts at every scrape. NaN if a
 * server did not answer (the restart's new process listens on the same metrics port).
 */
async function loopDelay(metricsPorts: number[]): Promise<{ p99: number; max: number }> {
  const read = async (port: number) => {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    const gauge = (name: string) =>
      1000 * Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    return {
      p99: gauge('nodejs_eventloop_lag_p99_seconds'),
      max: gauge('nodejs_eventloop_lag_max_seconds'),
    };
  };
  try {
    const all = await Promise.all(metricsPorts.map(read));
    return {
      p99: Math.max(...all.map((d) => d.p99)),
      max: Math.max(...all.map((d) => d.max)),
    };
  } catch {
    return { p99: Number.NaN, max: Number.NaN };
  }
}

class Worker {
  readonly child: ChildProcess;
  synced = 0;
  lastSyncAt = 0;
  frames = 0;
  /** Settles once the worker's code is loaded. */
  readonly loaded: Promise<unknown>;
  constructor() {
    this.child = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
    this.loaded = this.next('loaded');
    this.child.on('message', (m: FromCrowdWorker) => {
      if (m.type !== 'progress') return;
      this.synced = m.synced;
      this.lastSyncAt = m.lastSyncAt;
      this.frames = m.frames;
    });
  }
  send(message: ToCrowdWorker): void {
    this.child.send(message);
  }
  next<T extends FromCrowdWorker['type']>(type: T): Promise<Extract<FromCrowdWorker, { type: T }>> {
    return new Promise((resolve, reject) => {
      const onMessage = (m: FromCrowdWorker) => {
        if (m.type === type) {
          cleanup();
          resolve(m as Extract<FromCrowdWorker, { type: T }>);
        } else if (m.type === 'fatal') {
          cleanup();
          reject(new Error(`crowd worker failed: ${m.message}`));
        }
      };
      const onExit = (code: number | null) => {
        cleanup();
        reject(new Error(`crowd worker exited (${code}) before '${type}'`));
      };
      const cleanup = () => {
        this.child.off('message', onMessage);
        this.child.off('exit', onExit);
      };
      this.child.on('message', onMessage);
      this.child.on('exit', onExit);
    });
  }
  stop(): Promise<void> {
    return new Promise((resolve) => {
      if (this.child.exitCode !== null || this.child.signalCode !== null) return resolve();
      const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
      this.child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      this.send({ type: 'stop' });
    });
  }
}

/** Waits until `done` holds or `limitMs` passed; resolves whether it held. */
async function until(done: () => boolean, limitMs: number): Promise<boolean> {
  const end = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() >= end) return false;
    await sleep(50);
  }
  return true;
}

interface PhaseFigures {
  phase: CrowdPhase;
  seconds: number;
  others: LatencySummary;
  serverCpu: number;
  /** Share of one core: all spectator processes together, the busiest one, the players' one. */
  crowdCpu: number;
  crowdCpuMax: number;
  playersCpu: number;
  frames: Record<string, number>;
  /** The server's event-loop delay in the phase (the worst server's), ms. */
  loop: { p99: number; max: number };
  /** Share of the phase the main thread of the server (the busiest) and the players' process waited for a core. */
  serverQueued: number;
  playersQueued: number;
}

interface CrowdRun {
  kind: TargetKind;
  way: Way;
  spectators: number;
  /** From the first connection attempt until the last spectator synced, ms (NaN: not all). */
  joinMs: number;
  syncedAtLimit: number;
  /** Until the spectators received no frame for 1 s after all synced, ms. */
  settleMs: number;
  phases: PhaseFigures[];
  /** Every spectator's delay of every watched move in the play phase, ms. */
  spectatorDelay: LatencySummary;
  /** Per watched move, the delay until the last spectator had it, ms. */
  lastSpectator: LatencySummary;
  /** Watched moves in the play phase, and (spectator, move) pairs that never arrived. */
  watchedMoves: number;
  missing: number;
  ackQuiet: LatencySummary;
  ackPlay: LatencySummary;
  /** From SIGTERM until the whole crowd was synced again, ms (NaN: not within the limit). */
  backMs: number;
  /** From SIGTERM until the new server process (the last, behind nginx) listened, ms. */
  restartMs: number;
  syncedAfterRestart: number;
  connectErrors: Partial<Record<CrowdPhase, number>>;
  /** The restart phase's failed connection attempts before and after the new process listened. */
  restartErrors: { beforeListening: number; afterListening: number };
  errors: string[];
}

/** CPU share of one core of a worker's report in each phase. */
function cpuShares(report: CrowdReport): Partial<Record<CrowdPhase, number>> {
  const shares: Partial<Record<CrowdPhase, number>> = {};
  for (let i = 0; i + 1 < report.cpu.length; i++) {
    const a = report.cpu[i];
    const b = report.cpu[i + 1];
    if (!a || !b || b.at <= a.at) continue;
    shares[a.phase] = (shares[a.phase] ?? 0) + (b.seconds - a.seconds) / ((b.at - a.at) / 1000);
  }
  return shares;
}

async function measure(kind: TargetKind, way: Way): Promise<CrowdRun> {
  const { target, backends, metricsPorts } = await serve(kind, way);
  const base = `http://127.0.0.1:${target.port}`;
  const players = new Worker();
  const crowd = Array.from({ length: options.workers }, () => new Worker());
  // --crowd-nice: the spectators' processes yield the cores to the server and the players'
  // process, to tell the server's own delays from waiting for a core on a shared machine.
  // --crowd-sched idle: every thread of the spectators' processes runs only when no other
  // process wants the core (SCHED_IDLE; a waking server preempts them at once, where a niced
  // process keeps its slice): the crowd's clients as if on other machines, as they would be.
  for (const w of crowd) {
    if (!w.child.pid) continue;
    if (crowdNice > 0) os.setPriority(w.child.pid, crowdNice);
    if (crowdSched === 'idle')
      execFileSync('chrt', ['--all-tasks', '--idle', '-p', '0', String(w.child.pid)]);
  }
  const all = [players, ...crowd];
  try {
    const ready = players.next('ready');
    players.send({
      type: 'players',
      ctx: {
        kind: way === 'direct' ? kind : 'postgres',
        base,
        frame: sampleFrame().frame,
        stepTimeoutMs: 10_000,
        reconnectOnServerDisconnect: true,
        spreadAddresses: true,
      },
      matches: options.others,
      periodMs: options.period,
      watched: true,
    });
    const { watchedID, errors: openErrors } = await ready;
    if (!watchedID) throw new Error(`the watched match did not open: ${openErrors.join(' | ')}`);

    const edges: {
      phase: CrowdPhase;
      at: number;
      server: number;
      loop: { p99: number; max: number };
      /** Run-queue time so far of each server's and the players' main thread, ms. */
      serverQueued: number[];
      playersQueued: number;
    }[] = [];
    const enter = async (phase: CrowdPhase) => {
      // The loop's delay of the phase that ends here (the reading restarts the histogram).
      const loop = await loopDelay(metricsPorts);
      const last = edges.at(-1);
      if (last) last.loop = loop;
      for (const w of all) w.send({ type: 'phase', phase });
      edges.push({
        phase,
        at: now(),
        server: target.cpuSeconds(),
        loop: { p99: Number.NaN, max: Number.NaN },
        serverQueued: backends.map((b) => queuedMs(b.pid)),
        playersQueued: queuedMs(players.child.pid),
      });
    };

    // The crowd's processes start (compile, load) before the baseline, not during it.
    await Promise.all(all.map((w) => w.loaded));
    await enter('quiet');
    players.send({ type: 'go' });
    players.send({ type: 'watch', moving: true });
    await sleep(options.quiet * 1000);
    players.send({ type: 'watch', moving: false });
    await sleep(options.period * 2);

    const n = options.spectators;
    await enter('join');
    const joinStart = now();
    let first = 0;
    crowd.forEach((w, i) => {
      const share = Math.floor(n / crowd.length) + (i < n % crowd.length ? 1 : 0);
      w.send({
        type: 'spectators',
        base,
        matchID: watchedID,
        first,
        count: share,
        addresses: ADDRESSES,
        spread: way === 'nginx',
      });
      first += share;
    });
    const synced = () => crowd.reduce((s, w) => s + w.synced, 0);
    const allIn = await until(() => synced() === n, options['join-limit'] * 1000);
    const joinMs = allIn ? Math.max(...crowd.map((w) => w.lastSyncAt)) - joinStart : Number.NaN;
    const syncedAtLimit = synced();

    await enter('settle');
    const frames = () => crowd.reduce((s, w) => s + w.frames, 0);
    let seen = frames();
    let quietSince = Date.now();
    await until(() => {
      const f = frames();
      if (f !== seen) {
        seen = f;
        quietSince = Date.now();
      }
      return Date.now() - quietSince >= 1000;
    }, options['settle-limit'] * 1000);
    const settleMs = now() - joinStart;

    await enter('play');
    players.send({ type: 'watch', moving: true });
    await sleep(options.play * 1000);
    players.send({ type: 'watch', moving: false });
    // The last move's fan-out may still be under way.
    await sleep(2000);

    await enter('restart');
    const restartAt = now();
    await target.restart();
    const listenedAt = now();
    const restartMs = listenedAt - restartAt;
    const back = await until(
      () => synced() === n && crowd.every((w) => w.lastSyncAt > restartAt),
      options['restart-limit'] * 1000,
    );
    const backMs = back ? Math.max(...crowd.map((w) => w.lastSyncAt)) - restartAt : Number.NaN;
    const syncedAfterRestart = synced();
    const endAt = now();

    const reports = await Promise.all(
      all.map((w) => {
        const r = w.next('report');
        w.send({ type: 'report' });
        return r.then((m) => m.report);
      }),
    );
    const [playersReport, ...crowdReports] = reports as [CrowdReport, ...CrowdReport[]];

    const window = (phase: CrowdPhase) => {
      const i = edges.findIndex((e) => e.phase === phase);
      const from = edges[i]?.at ?? Number.NaN;
      const to = edges[i + 1]?.at ?? endAt;
      return { from, to, i };
    };
    const phases: PhaseFigures[] = edges.map((edge, i) => {
      const { from, to } = window(edge.phase);
      const next = edges[i + 1];
      const seconds = (to - from) / 1000;
      // The restart's server is another process: its CPU is not comparable.
      const serverCpu = next ? (next.server - edge.server) / seconds : Number.NaN;
      const serverQueued = next
        ? Math.max(...edge.serverQueued.map((q, b) => (next.serverQueued[b] ?? Number.NaN) - q))
        : Number.NaN;
      const playersQueued =
        (next?.playersQueued ?? queuedMs(players.child.pid)) - edge.playersQueued;
      const crowdShares = crowdReports.map((r) => cpuShares(r)[edge.phase] ?? 0);
      const counted: Record<string, number> = {};
      for (const r of crowdReports) {
        for (const [event, c] of Object.entries(r.frames[edge.phase] ?? {})) {
          counted[event] = (counted[event] ?? 0) + c;
        }
      }
      return {
        phase: edge.phase,
        seconds,
        others: summarize(
          playersReport.others.filter(([at]) => at >= from && at < to).map(([, rtt]) => rtt),
        ),
        serverCpu,
        crowdCpu: crowdShares.reduce((a, b) => a + b, 0),
        crowdCpuMax: Math.max(...crowdShares),
        playersCpu: cpuShares(playersReport)[edge.phase] ?? 0,
        frames: counted,
        loop: edge.loop,
        serverQueued: serverQueued / 1000 / seconds,
        playersQueued: playersQueued / 1000 / seconds,
      };
    });

    const quiet = window('quiet');
    const play = window('play');
    const moves = (from: number, to: number) =>
      playersReport.watched.filter((m) => m.sentAt >= from && m.sentAt < to);
    const played = moves(play.from, play.to);
    const delays: number[] = [];
    const lasts: number[] = [];
    let missing = 0;
    for (const move of played) {
      const arrived = crowdReports.flatMap((r) => r.arrivals[move.from] ?? []);
      for (const at of arrived) delays.push(at - move.sentAt);
      missing += Math.max(0, n - arrived.length);
      if (arrived.length > 0) lasts.push(Math.max(...arrived) - move.sentAt);
    }
    return {
      kind,
      way,
      spectators: n,
      joinMs,
      syncedAtLimit,
      settleMs,
      phases,
      spectatorDelay: summarize(delays),
      lastSpectator: summarize(lasts),
      watchedMoves: played.length,
      missing,
      ackQuiet: summarize(moves(quiet.from, quiet.to).map((m) => m.ack)),
      ackPlay: summarize(played.map((m) => m.ack)),
      backMs,
      restartMs,
      syncedAfterRestart,
      connectErrors: crowdReports.reduce<Partial<Record<CrowdPhase, number>>>((sum, r) => {
        for (const [phase, c] of Object.entries(r.connectErrors) as [CrowdPhase, number][]) {
          sum[phase] = (sum[phase] ?? 0) + c;
        }
        return sum;
      }, {}),
      restartErrors: {
        beforeListening: crowdReports.reduce(
          (sum, r) => sum + r.restartErrorTimes.filter((at) => at < listenedAt).length,
          0,
        ),
        afterListening: crowdReports.reduce(
          (sum, r) => sum + r.restartErrorTimes.filter((at) => at >= listenedAt).length,
          0,
        ),
      },
      errors: [...new Set(reports.flatMap((r) => r.errors))].slice(0, 10),
    };
  } finally {
    await Promise.all(all.map((w) => w.stop()));
    await target.dispose();
  }
}

const share = (x: number) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : 'n/a');
const seconds = (x: number) => (Number.isFinite(x) ? (x / 1000).toFixed(1) : 'n/a');
const met = (ok: boolean) => (ok ? 'met' : 'missed');
const presenceWhileJoining = (r: CrowdRun) =>
  r.phases
    .filter((p) => p.phase === 'join' || p.phase === 'settle')
    .reduce((s, p) => s + (p.frames.presence ?? 0), 0);

const runsPlanned = targets.length * ways.length;
bounded(
  60 +
    runsPlanned *
      (options.quiet +
        options['join-limit'] +
        options['settle-limit'] +
        options.play +
        options['restart-limit'] +
        240),
  async () => {
    const run = machine();
    const runs: CrowdRun[] = [];
    for (const kind of targets) {
      for (const way of ways) {
        console.log(
          `crowd: ${options.spectators} spectators, ${way === 'direct' ? kind : 'postgres'}, ${way}...`,
        );
        runs.push(await measure(way === 'direct' ? kind : 'postgres', way));
      }
    }
    const label = (r: CrowdRun) =>
      r.way === 'direct' ? `${r.kind}, direct` : '2 servers, Postgres + Redis, nginx';
    record(
      `crowd, ${options.spectators} spectators`,
      run,
      [
        'setup',
        'all synced after s',
        'presence frames while joining',
        'move -> spectator p50 / p99 ms',
        'move -> last spectator p50 / max ms',
        'mover ack p50 / p99 ms (no crowd)',
        'others p99 join / play / quiet ms',
        'crowd back after SIGTERM s',
      ],
      runs.map((r) => {
        const p = (phase: CrowdPhase) =>
          r.phases.find((x) => x.phase === phase)?.others.p99 ?? Number.NaN;
        return [
          label(r),
          Number.isFinite(r.joinMs)
            ? seconds(r.joinMs)
            : `${r.syncedAtLimit} synced after ${options['join-limit']} s`,
          presenceWhileJoining(r).toLocaleString('en'),
          `${ms(r.spectatorDelay.p50)} / ${ms(r.spectatorDelay.p99)}`,
          `${ms(r.lastSpectator.p50)} / ${ms(r.lastSpectator.max)}`,
          `${ms(r.ackPlay.p50)} / ${ms(r.ackPlay.p99)} (${ms(r.ackQuiet.p50)} / ${ms(r.ackQuiet.p99)})`,
          `${ms(p('join'))} / ${ms(p('play'))} / ${ms(p('quiet'))}`,
          Number.isFinite(r.backMs)
            ? seconds(r.backMs)
            : `${r.syncedAfterRestart} synced after ${options['restart-limit']} s`,
        ];
      }),
      { options, runs },
    );
    record(
      'crowd, by phase',
      run,
      [
        'setup',
        'phase',
        's',
        'others moves',
        'others p50 / p99 ms',
        'p99 / quiet',
        'server CPU',
        'crowd clients CPU (sum, busiest)',
        'players client CPU',
        'server loop delay p99 / max ms',
        'waiting for a core: server, players',
        'frames the spectators received',
      ],
      runs.flatMap((r) => {
        const quietP99 = r.phases.find((x) => x.phase === 'quiet')?.others.p99 ?? Number.NaN;
        return r.phases.map((p) => [
          label(r),
          p.phase,
          p.seconds.toFixed(1),
          p.others.count,
          `${ms(p.others.p50)} / ${ms(p.others.p99)}`,
          ratio(p.others.p99, quietP99),
          share(p.serverCpu),
          `${share(p.crowdCpu)}, ${share(p.crowdCpuMax)}`,
          share(p.playersCpu),
          `${ms(p.loop.p99)} / ${ms(p.loop.max)}`,
          `${share(p.serverQueued)}, ${share(p.playersQueued)}`,
          Object.entries(p.frames)
            .map(([event, c]) => `${event} ${c}`)
            .join(', '),
        ]);
      }),
      {},
    );
    console.log(
      `\n${options.spectators} spectators from ${ADDRESSES.length} addresses in ${options.workers} processes; ${options.others} other matches and the watched one move every ${options.period} ms`,
    );
    for (const r of runs) {
      const joinP99 = r.phases.find((x) => x.phase === 'join')?.others.p99 ?? Number.NaN;
      const playP99 = r.phases.find((x) => x.phase === 'play')?.others.p99 ?? Number.NaN;
      const quietP99 = r.phases.find((x) => x.phase === 'quiet')?.others.p99 ?? Number.NaN;
      const worst = Math.max(joinP99, playP99) / quietP99;
      console.log(
        [
          `${label(r)} against the goals:`,
          `  all synced within ${GOALS.joinMs / 1000} s: ${seconds(r.joinMs)} s, ${met(r.joinMs <= GOALS.joinMs)}`,
          `  move -> every spectator p99 <= ${GOALS.spectatorP99} ms: ${ms(r.spectatorDelay.p99)} ms, ${met(r.spectatorDelay.p99 <= GOALS.spectatorP99)} (${r.watchedMoves} moves, ${r.missing} deliveries missing)`,
          `  mover ack p99 <= ${GOALS.ackP99} ms: ${ms(r.ackPlay.p99)} ms, ${met(r.ackPlay.p99 <= GOALS.ackP99)}`,
          `  others' p99 within ${GOALS.othersRatio}x of the quiet phase: join ${ratio(joinP99, quietP99)}, play ${ratio(playP99, quietP99)}, ${met(worst <= GOALS.othersRatio)}`,
          `  crowd back within ${GOALS.backMs / 1000} s of SIGTERM: ${seconds(r.backMs)} s, ${met(r.backMs <= GOALS.backMs)} (the new process listened after ${seconds(r.restartMs)} s)`,
        ].join('\n'),
      );
      const failed = Object.entries(r.connectErrors).map(([phase, c]) => `${phase} ${c}`);
      if (failed.length > 0) {
        const { beforeListening, afterListening } = r.restartErrors;
        console.log(
          `  spectators' failed connection attempts: ${failed.join(', ')} (restart: ${beforeListening} before the new process listened, ${afterListening} after)`,
        );
      }
      if (r.errors.length > 0) console.log(`  errors: ${r.errors.join(' | ')}`);
    }
  },
);
