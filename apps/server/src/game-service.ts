import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { type MoveName, type Seat, type State, viewFor } from '@iron-curtain/game';
import {
  type Ack,
  GAME_NAMESPACE,
  MAX_MESSAGE_BYTES,
  type Presence,
  type RefusedMessage,
  ServerEvents,
  type SyncMessage,
  syncRequestSchema,
  type UpdateMessage,
  updateRequestSchema,
  viewPatch,
} from '@iron-curtain/protocol';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { Server, type Socket } from 'socket.io';
import type { z } from 'zod';
import type { Config } from './config.ts';
import type { ConnectionLimits } from './connection-limits.ts';
import { frameFor, type MatchEngine, playedWith } from './engine.ts';
import { type Fanout, type FanoutMessage, localFanout } from './fanout.ts';
import type { Logger } from './logger.ts';
import { clockState, flagFallen, switchClock } from './match-clock.ts';
import type { MatchQueues } from './match-queue.ts';
import type { Metrics } from './metrics.ts';
import type { PresenceBook } from './presence.ts';
import { spend } from './rate-limiters.ts';
import { secretMatches } from './secrets.ts';
import type { ClockRecord, MatchRecord, MatchResult, Store, StoredState } from './storage/index.ts';
import { systemTime, type TimeSource } from './time.ts';
import { Timekeeper } from './timekeeper.ts';

/** What the game service remembers about one socket. */
interface Seating {
  matchID: string;
  /** null: a spectator. */
  seat: Seat | null;
}

interface SocketData {
  seating?: Seating;
  /** The state id this socket was last sent; an update is sent only on top of it. */
  stateID?: number;
  /** Refusals for rate in a row; a socket that keeps flooding is disconnected. */
  flooding: number;
}

interface ClientToServer {
  sync: (...args: unknown[]) => void;
  update: (...args: unknown[]) => void;
}
interface ServerToClient {
  sync: (message: SyncMessage) => void;
  update: (message: UpdateMessage) => void;
  presence: (message: Presence) => void;
  refused: (message: RefusedMessage) => void;
  restarting: () => void;
}
type GameSocket = Socket<ClientToServer, ServerToClient, Record<string, never>, SocketData>;
type AckFn = (ack: Ack) => void;
type StoredUpdate = Extract<FanoutMessage, { kind: 'update' }>;

const FLOOD_LIMIT = 50;
/** How long a stopping server waits for its sockets to leave when told to reconnect elsewhere. */
const RESTART_NOTICE_MS = 1000;
/** Larger frames are dropped by the transport itself (the connection closes). */
const TRANSPORT_LIMIT = 4 * MAX_MESSAGE_BYTES;

const matchRoom = (matchID: string) => `match:${matchID}`;
const viewRoom = (matchID: string, seat: Seat | null) => `match:${matchID}:${seat ?? 'spectators'}`;

const firstIssue = (error: z.core.$ZodError): string =>
  error.issues
    .slice(0, 2)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');

export type GameServiceConfig = Pick<
  Config,
  'ALLOWED_ORIGINS' | 'RATE_LIMIT_PER_SECOND' | 'RATE_LIMIT_BURST'
>;

export interface GameServiceDeps {
  config: GameServiceConfig;
  store: Store;
  engine: MatchEngine;
  queues: MatchQueues;
  presence: PresenceBook;
  metrics: Metrics;
  logger: Logger;
  /** Other instances' sockets; without it this instance is alone. */
  fanout?: Fanout;
  /** Told whenever a socket attaches to a match (computer players resume then). */
  onAttach?: (matchID: string) => void;
  /** Turn clocks and absences are measured with it; tests move it by hand. */
  time?: TimeSource;
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs?: number;
  /** Per-address limits at the door; without them only the per-socket rate applies. */
  limits?: ConnectionLimits;
}

/** The seat a match's clock should run for: the one whose decision it is. */
const deciderOf = (state: { G: unknown }): Seat | null =>
  (state.G as { decision?: { seat: Seat } | null }).decision?.seat ?? null;

/**
 * The socket.io game service: sockets attach to a match as a seat (with credentials) or as
 * spectators, send moves, and receive their own view of every stored state. Every message
 * is validated; whatever is refused gets a reason, and the socket is re-synced.
 *
 * With several instances, any of them may take a move: the store's compare-and-set lets
 * exactly one writer win, the loser refuses (STALE_STATE) and re-syncs its socket, and only
 * a stored state is ever sent, here and, through the fan-out, on every other instance.
 */
export class GameService {
  readonly io: Server<ClientToServer, ServerToClient, Record<string, never>, SocketData>;
  private closing = false;
  /** While closing: told whenever a socket leaves. */
  private socketLeft: (() => void) | undefined;
  private readonly fanout: Fanout;
  private readonly time: TimeSource;
  private readonly timekeeper: Timekeeper;
  /** Messages per socket: RATE_LIMIT_BURST at once, RATE_LIMIT_PER_SECOND on average. */
  private readonly messages: RateLimiterMemory;
  /** Absences before this instance started are counted from here at the earliest. */
  readonly startedAt: number;

  constructor(
    http: HttpServer,
    private readonly deps: GameServiceDeps,
  ) {
    this.fanout = deps.fanout ?? localFanout();
    this.time = deps.time ?? systemTime;
    this.startedAt = this.time.now();
    this.timekeeper = new Timekeeper(this.time, (matchID) => this.timeUp(matchID));
    const { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } = deps.config;
    this.messages = new RateLimiterMemory({
      keyPrefix: 'socket-messages',
      points: RATE_LIMIT_BURST,
      duration: RATE_LIMIT_BURST / RATE_LIMIT_PER_SECOND,
    });
    this.fanout.onMessage((message) => this.heard(message));
    this.io = new Server(http, {
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: TRANSPORT_LIMIT,
      allowRequest: (req, callback) => {
        const allowed = this.originAllowed(req);
        if (!allowed) {
          deps.metrics.rejections.inc({ code: 'BAD_ORIGIN' });
          deps.logger.warn({ origin: req.headers.origin }, 'socket refused: origin not allowed');
        }
        if (!allowed || !deps.limits)
          return callback(allowed ? null : 'origin not allowed', allowed);
        void deps.limits.admit(req).then((refusal) => callback(refusal ?? null, !refusal));
      },
    });
    // Only the game namespace serves anything.
    this.io.on('connection', (socket) => socket.disconnect(true));
    this.io.of(GAME_NAMESPACE).on('connection', (socket: GameSocket) => this.connected(socket));
  }

  /** Browsers always send Origin: it must be our own or a configured one. Other clients send none. */
  private originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true;
    if (this.deps.config.ALLOWED_ORIGINS.includes(origin)) return true;
    try {
      return new URL(origin).host === req.headers.host;
    } catch {
      return false;
    }
  }

  private connected(socket: GameSocket): void {
    const { metrics, limits } = this.deps;
    socket.data = { flooding: 0 };
    if (limits && !limits.attach(socket, () => socket.data.seating !== undefined)) return;
    metrics.sockets.inc();
    socket.onAny((event: unknown, ...args: unknown[]) => {
      if (event !== 'sync' && event !== 'update') {
        const name = String(event).slice(0, 32);
        const ack = args.filter((a) => typeof a === 'function');
        void this.guard(socket, [null, ...ack.slice(-1)], async (_payload, answer) =>
          this.refuse(socket, { code: 'BAD_MESSAGE', message: `unknown event '${name}'` }, answer),
        );
      }
    });
    socket.on('sync', (...args: unknown[]) =>
      this.guard(socket, args, (payload, ack) => this.sync(socket, payload, ack)),
    );
    socket.on('update', (...args: unknown[]) =>
      this.guard(socket, args, (payload, ack) => this.update(socket, payload, ack)),
    );
    socket.on('disconnect', () => {
      void this.messages.delete(socket.id);
      metrics.sockets.dec();
      this.detach(socket);
      this.socketLeft?.();
    });
  }

  /** Rate limit, size cap and the last line of defence: nothing a client sends can throw out of here. */
  private async guard(
    socket: GameSocket,
    args: unknown[],
    handler: (payload: unknown, ack: AckFn | undefined) => Promise<void>,
  ): Promise<void> {
    const ack = typeof args.at(-1) === 'function' ? (args.pop() as AckFn) : undefined;
    try {
      if (await spend(this.messages, socket.id)) {
        socket.data.flooding += 1;
        if (socket.data.flooding > FLOOD_LIMIT && socket.connected) {
          this.deps.limits?.flooded(socket);
          socket.disconnect(true);
        }
        this.refuse(socket, { code: 'RATE_LIMITED', message: 'too many messages; slow down' }, ack);
        return;
      }
      socket.data.flooding = 0;
      if (this.closing) {
        this.refuse(socket, { code: 'SERVER_ERROR', message: 'the server is shutting down' }, ack);
        return;
      }
      let size: number;
      try {
        size = Buffer.byteLength(JSON.stringify(args) ?? '');
      } catch {
        size = Number.POSITIVE_INFINITY;
      }
      if (size > MAX_MESSAGE_BYTES) {
        this.refuse(
          socket,
          { code: 'TOO_LARGE', message: `messages may be at most ${MAX_MESSAGE_BYTES} bytes` },
          ack,
        );
        await this.resyncOutsideQueue(socket);
        return;
      }
      if (args.length !== 1) {
        this.refuse(socket, { code: 'BAD_MESSAGE', message: 'send exactly one payload' }, ack);
        await this.resyncOutsideQueue(socket);
        return;
      }
      await handler(args[0], ack);
    } catch (error) {
      this.deps.logger.error({ err: error, socket: socket.id }, 'game service failure');
      this.refuse(socket, { code: 'SERVER_ERROR', message: 'the server failed; try again' }, ack);
      await this.resyncOutsideQueue(socket).catch(() => undefined);
    }
  }

  private refuse(socket: GameSocket, error: RefusedMessage, ack?: AckFn): void {
    this.deps.metrics.rejections.inc({ code: error.code });
    this.deps.logger.info(
      { socket: socket.id, matchID: socket.data.seating?.matchID, code: error.code },
      `refused: ${error.message}`,
    );
    socket.emit(ServerEvents.refused, error);
    ack?.({ ok: false, error });
  }

  private async resyncOutsideQueue(socket: GameSocket): Promise<void> {
    const seating = socket.data.seating;
    if (seating) await this.deps.queues.run(seating.matchID, () => this.sendSync(socket));
  }

  private async sync(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const parsed = syncRequestSchema.safeParse(payload);
    if (!parsed.success) {
      this.refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return this.resyncOutsideQueue(socket);
    }
    const { matchID, playerID, credentials } = parsed.data;
    const { store, queues } = this.deps;
    await queues.run(matchID, async () => {
      const match = await store.getMatch(matchID);
      if (!match) {
        this.refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
        return;
      }
      if (playerID !== null) {
        const seat = match.players.find((p) => p.seat === playerID);
        if (
          credentials === undefined ||
          !seat ||
          !secretMatches(credentials, seat.credentialsHash)
        ) {
          this.refuse(
            socket,
            { code: 'UNAUTHORIZED', message: `these credentials do not hold seat ${playerID}` },
            ack,
          );
          return;
        }
      }
      this.detach(socket);
      await this.attach(socket, { matchID, seat: playerID });
      await this.sendSync(socket, match);
      ack?.({ ok: true });
      await this.announce(match);
    });
  }

  private async update(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const received = performance.now();
    const parsed = updateRequestSchema.safeParse(payload);
    if (!parsed.success) {
      this.refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return this.resyncOutsideQueue(socket);
    }
    const { matchID, stateID, action } = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== matchID) {
      this.refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return this.resyncOutsideQueue(socket);
    }
    if (seating.seat === null) {
      this.refuse(socket, { code: 'UNAUTHORIZED', message: 'spectators cannot move' }, ack);
      return this.resyncOutsideQueue(socket);
    }
    if (action.payload.playerID !== seating.seat) {
      this.refuse(
        socket,
        { code: 'UNAUTHORIZED', message: `this socket plays seat ${seating.seat} only` },
        ack,
      );
      return this.resyncOutsideQueue(socket);
    }
    const seat = seating.seat;
    const { store, queues, engine, metrics } = this.deps;
    await queues.run(matchID, async () => {
      const match = await store.getMatch(matchID);
      if (!match) {
        this.refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
        return;
      }
      const now = this.time.now();
      if (match.status === 'playing' && match.clock && flagFallen(match.clock, now) !== null) {
        await this.finishOnTime(match, now);
        this.refuse(socket, { code: 'INVALID_MOVE', message: 'the clock ran out' }, ack);
        return;
      }
      let result: Awaited<ReturnType<MatchEngine['move']>>;
      try {
        result = await engine.move(
          match,
          {
            seat,
            stateID,
            move: action.payload.type as MoveName,
            args: action.payload.args as unknown[],
          },
          match.clock ? { clock: match.clock, now } : undefined,
        );
      } catch (error) {
        this.deps.logger.error({ err: error, matchID }, 'move failed');
        result = {
          ok: false,
          error: { code: 'SERVER_ERROR', message: 'the move could not be stored' },
        };
      }
      if (!result.ok) {
        this.refuse(socket, result.error, ack);
        await this.sendSync(socket);
        return;
      }
      await this.broadcast(matchID, result.previous, result.state, result.entries, result.clock);
      if (result.clock) this.timekeeper.track({ ...match, clock: result.clock });
      ack?.({ ok: true });
      metrics.moves.inc();
      metrics.moveLatency.observe((performance.now() - received) / 1000);
      // A track win or final scoring: stored with its move (and the clock stopped) at once.
      if (result.result) await this.end(match, result.result, now, 'stored with the move');
    });
  }

  /** Resolves once this instance hears the match's updates from other instances too. */
  private async attach(socket: GameSocket, seating: Seating): Promise<void> {
    socket.data.seating = seating;
    socket.data.stateID = undefined;
    void socket.join([matchRoom(seating.matchID), viewRoom(seating.matchID, seating.seat)]);
    this.deps.presence.join(seating.matchID, seating.seat);
    this.deps.metrics.matchesActive.set(this.deps.presence.size);
    await this.fanout.watch(seating.matchID);
    if (seating.seat !== null) await this.deps.store.setAway(seating.matchID, seating.seat, null);
    this.deps.onAttach?.(seating.matchID);
  }

  private detach(socket: GameSocket): void {
    const seating = socket.data.seating;
    if (!seating) return;
    socket.data.seating = undefined;
    socket.data.stateID = undefined;
    void socket.leave(matchRoom(seating.matchID));
    void socket.leave(viewRoom(seating.matchID, seating.seat));
    this.deps.presence.leave(seating.matchID, seating.seat);
    this.deps.metrics.matchesActive.set(this.deps.presence.size);
    this.fanout.unwatch(seating.matchID);
    // At shutdown every socket leaves at once: nobody left, the server did. Absence then
    // counts from the next start, and the clients reconnect to the next process.
    if (this.closing) return;
    if (seating.seat !== null) this.seatLeft(seating.matchID, seating.seat);
    this.matchChanged(seating.matchID);
  }

  /** The seat's last socket anywhere has gone: it is away from now (abandonment counts from here). */
  private seatLeft(matchID: string, seat: Seat): void {
    void this.deps.queues
      .run(matchID, async () => {
        const attendance = await this.deps.presence.everywhere(matchID);
        if (attendance.seats[seat] > 0) return;
        await this.deps.store.setAway(matchID, seat, new Date(this.time.now()).toISOString());
      })
      .catch((error) => this.deps.logger.error({ err: error, matchID }, 'absence not stored'));
  }

  /** Sends a socket the whole picture of its match, as its seat sees it. */
  private async sendSync(socket: GameSocket, known?: MatchRecord): Promise<void> {
    const seating = socket.data.seating;
    if (!seating || !socket.connected) return;
    const { store } = this.deps;
    const match = known ?? (await store.getMatch(seating.matchID));
    const state = await store.loadState(seating.matchID);
    if (!match || !state) return;
    // Another instance may store a move between the two reads: the log stops at the state.
    const moves = (await store.readMoves(seating.matchID)).filter(
      (m) => m.stateID <= state._stateID,
    );
    const clock = match.clock ? { clock: clockState(match.clock, this.time.now()) } : {};
    const message: SyncMessage = {
      matchID: seating.matchID,
      playerID: seating.seat,
      rules: playedWith(match).rules,
      state: { ...frameFor(state, seating.seat), ...clock },
      log: moves.flatMap((m) => m.entries),
      presence: await this.presenceOf(match),
    };
    if (!socket.connected || socket.data.seating !== seating) return;
    socket.data.stateID = state._stateID;
    socket.emit(ServerEvents.sync, message);
  }

  /**
   * A state this instance stored: to its own sockets, then to every other instance's. Each
   * viewer is sent what the move changed in its own view, as a patch on the state before.
   */
  private async broadcast(
    matchID: string,
    previous: StoredState,
    state: StoredState,
    entries: UpdateMessage['entries'],
    clockRecord?: ClockRecord,
  ): Promise<void> {
    const before = previous.G as State;
    const after = state.G as State;
    const patchFor = (viewer: Seat | null) =>
      viewPatch(viewFor(before, viewer), viewFor(after, viewer));
    const update: StoredUpdate = {
      kind: 'update',
      matchID,
      from: previous._stateID,
      stateID: state._stateID,
      patches: { '0': patchFor('0'), '1': patchFor('1'), spectators: patchFor(null) },
      entries,
      ...(clockRecord ? { clock: clockState(clockRecord, this.time.now()) } : {}),
    };
    this.fanout.publish(update);
    await this.deliver(update);
  }

  /**
   * Sends a stored state's update to this instance's sockets of the match, each its own
   * view's patch, only to a socket holding the state the patch applies to: an older or
   * repeated state is dropped, and a socket that missed one (a fan-out message lost or
   * overtaken) gets the whole picture instead.
   */
  private async deliver(update: StoredUpdate): Promise<void> {
    const { matchID, from, stateID, patches, entries, clock } = update;
    const nsp = this.io.of(GAME_NAMESPACE);
    const next: Record<'0' | '1' | 'spectators', string[]> = { '0': [], '1': [], spectators: [] };
    const behind: GameSocket[] = [];
    for (const id of nsp.adapter.rooms.get(matchRoom(matchID)) ?? []) {
      const socket = nsp.sockets.get(id);
      const seating = socket?.data.seating;
      if (!socket || seating?.matchID !== matchID || socket.data.stateID === undefined) continue;
      if (socket.data.stateID >= stateID) continue;
      if (socket.data.stateID === from) {
        next[seating.seat ?? 'spectators'].push(id);
        socket.data.stateID = stateID;
      } else behind.push(socket);
    }
    for (const viewer of ['0', '1', 'spectators'] as const) {
      if (next[viewer].length === 0) continue;
      const message: UpdateMessage = {
        matchID,
        from,
        stateID,
        patch: patches[viewer],
        entries,
        ...(clock ? { clock } : {}),
      };
      nsp.to(next[viewer]).emit(ServerEvents.update, message);
    }
    for (const socket of behind) await this.sendSync(socket);
  }

  /** A message from another instance, handled in the match's queue like local work. */
  private heard(message: FanoutMessage): void {
    const { matchID } = message;
    void this.deps.queues
      .run(matchID, async () => {
        if (message.kind === 'update') {
          await this.deliver(message);
          return;
        }
        if (!this.io.of(GAME_NAMESPACE).adapter.rooms.has(matchRoom(matchID))) return;
        const match = await this.deps.store.getMatch(matchID);
        if (match) await this.pushPresence(match);
      })
      .catch((error) => this.deps.logger.error({ err: error, matchID }, 'fan-out delivery failed'));
  }

  private async presenceOf(match: MatchRecord): Promise<Presence> {
    const attendance = await this.deps.presence.everywhere(match.matchID);
    const now = this.time.now();
    const seatPresence = (seat: Seat) => {
      const connected = attendance.seats[seat] > 0;
      const away = this.awaySince(match, seat);
      return {
        name: match.players[Number(seat)]?.name ?? null,
        connected,
        awayMs: connected ? null : Math.max(0, now - away),
      };
    };
    return {
      matchID: match.matchID,
      players: { '0': seatPresence('0'), '1': seatPresence('1') },
      spectators: attendance.spectators,
      status: match.status,
      result: match.result,
      graceMs: this.deps.graceMs ?? 60_000,
      clock: match.clock ? clockState(match.clock, now) : null,
      rematch: match.rematch ?? { offers: [], matchID: null },
    };
  }

  /**
   * Since when a disconnected seat counts as away: as stored, else since the last move or
   * this instance's start, whichever is later (a server killed outright stored nothing).
   */
  awaySince(match: MatchRecord, seat: Seat): number {
    const stored = match.players[Number(seat)]?.awaySince;
    if (stored) return Date.parse(stored);
    return Math.max(this.startedAt, Date.parse(match.updatedAt));
  }

  private async pushPresence(match: MatchRecord): Promise<void> {
    this.io
      .of(GAME_NAMESPACE)
      .to(matchRoom(match.matchID))
      .emit(ServerEvents.presence, await this.presenceOf(match));
  }

  /** Presence changed here: record this instance's sockets, tell ours, then the other instances. */
  private async announce(match: MatchRecord): Promise<void> {
    await this.fanout.share(match.matchID, this.deps.presence.here(match.matchID));
    await this.pushPresence(match);
    this.fanout.publish({ kind: 'presence', matchID: match.matchID });
  }

  /** A socket left, a seat was taken or a match ended through the lobby: tell the match's sockets. */
  matchChanged(matchID: string): void {
    void this.deps.queues
      .run(matchID, async () => {
        const match = await this.deps.store.getMatch(matchID);
        if (!match) return;
        const timed = await this.startClock(match);
        this.timekeeper.track(timed);
        await this.announce(timed);
      })
      .catch((error) => this.deps.logger.error({ err: error, matchID }, 'presence push failed'));
  }

  /** A match that has just begun starts its clock for the seat deciding first. */
  private async startClock(match: MatchRecord): Promise<MatchRecord> {
    const clock = match.clock;
    if (match.status !== 'playing' || !clock || clock.running !== null || clock.since !== null) {
      return match;
    }
    const state = await this.deps.store.loadState(match.matchID);
    if (!state) return match;
    const started = switchClock(clock, deciderOf(state), this.time.now());
    await this.deps.store.setClock(match.matchID, started);
    return { ...match, clock: started };
  }

  /** Arms the timers of every match in play with a running clock (on start). */
  async resumeClocks(): Promise<void> {
    for (const match of await this.deps.store.listRunningClocks()) this.timekeeper.track(match);
  }

  /** A timer fired: ends the match if the running seat's time is really up. */
  private timeUp(matchID: string): void {
    void this.deps.queues
      .run(matchID, async () => {
        const match = await this.deps.store.getMatch(matchID);
        if (match?.status !== 'playing' || !match.clock) return;
        const now = this.time.now();
        if (flagFallen(match.clock, now) === null) this.timekeeper.track(match);
        else await this.finishOnTime(match, now);
      })
      .catch((error) => this.deps.logger.error({ err: error, matchID }, 'clock check failed'));
  }

  /** The running seat ran out of time: its opponent wins, reason 'timeout'. */
  private async finishOnTime(match: MatchRecord, now: number): Promise<void> {
    const loser = match.clock ? flagFallen(match.clock, now) : null;
    if (loser === null) return;
    const winner: Seat = loser === '0' ? '1' : '0';
    const winnerSide = match.players[Number(winner)]?.side ?? 'US';
    await this.end(match, { winner, winnerSide, reason: 'timeout' }, now);
  }

  /**
   * The one way a match ends, whatever ended it: a resignation, a claim, the clock, a track
   * win or final scoring. Runs in the match's queue, so no move can slip in between.
   */
  finish(matchID: string, result: MatchResult | null, now: number): Promise<boolean> {
    return this.deps.queues.run(matchID, async () => {
      const match = await this.deps.store.getMatch(matchID);
      if (!match || match.status === 'finished') return false;
      return this.end(match, result, now);
    });
  }

  /**
   * Stores the result with the clock stopped (a move that ended the game stored both with
   * itself, atomically), clears the match's timers and tells players and spectators; computer
   * players and rematch offers follow from the finished status they are told. False when
   * the match had already ended.
   */
  private async end(
    match: MatchRecord,
    result: MatchResult | null,
    now: number,
    stored?: 'stored with the move',
  ): Promise<boolean> {
    if (!stored) {
      const stopped = match.clock ? switchClock(match.clock, null, now) : undefined;
      const at = new Date(now).toISOString();
      if (!(await this.deps.store.finishMatch(match.matchID, result, at, stopped))) return false;
    }
    this.timekeeper.clear(match.matchID);
    const finished = await this.deps.store.getMatch(match.matchID);
    if (finished) await this.announce(finished);
    return true;
  }

  /**
   * Tells every socket to reconnect now, so clients need not wait out their backoff: the
   * HTTP server no longer accepts connections, so behind the proxy they land on another
   * server. Resolves when all have left, or after RESTART_NOTICE_MS for clients that ignore it.
   */
  private sendSocketsAway(): Promise<void> {
    const game = this.io.of(GAME_NAMESPACE);
    if (game.sockets.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.socketLeft = undefined;
        resolve();
      };
      const timer = setTimeout(done, RESTART_NOTICE_MS);
      this.socketLeft = () => {
        if (game.sockets.size === 0) done();
      };
      game.emit(ServerEvents.restarting);
    });
  }

  /** Stops taking messages, lets queued moves finish, sends the sockets away, then closes. */
  async close(): Promise<void> {
    this.timekeeper.stop();
    this.closing = true;
    await this.deps.queues.drain();
    await this.sendSocketsAway();
    // io.close() drops the transports without socket.io's DISCONNECT packet: a client told
    // 'io server disconnect' would never reconnect by itself; after 'transport close' it does.
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
  }
}
