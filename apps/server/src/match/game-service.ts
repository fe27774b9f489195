import type { Server as HttpServer } from 'node:http';
import type { Seat } from '@iron-curtain/game';
import {
  ClientEvents,
  GAME_NAMESPACE,
  MAX_MESSAGE_BYTES,
  ServerEvents,
} from '@iron-curtain/protocol';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { Server } from 'socket.io';
import type { ConnectionLimits } from '../edge/connection-limits.ts';
import type {
  AckFn,
  ClientToServer,
  GameNamespace,
  GameSocket,
  ServerToClient,
  SocketData,
} from '../edge/game-sockets.ts';
import { SocketGuard } from '../edge/socket-guard.ts';
import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import type { MatchRecord, Store } from '../storage/index.ts';
import { MatchChat } from './chat.ts';
import { type FinishMatch, MatchEnding } from './ending.ts';
import type { MatchEngine } from './engine.ts';
import { type Fanout, localFanout } from './fanout.ts';
import { MatchMoves } from './moves.ts';
import type { PresenceBook } from './presence-book.ts';
import type { MatchQueues } from './queues.ts';
import { SeatSessions } from './seat-sessions.ts';
import { MatchClocks } from './turn-clocks.ts';

/** How long a stopping server waits for its sockets to leave when told to reconnect elsewhere. */
const RESTART_NOTICE_MS = 1000;
/** Larger frames are dropped by the transport itself (the connection closes). */
const TRANSPORT_LIMIT = 4 * MAX_MESSAGE_BYTES;
/** What handles one kind of message, once the socket guard has let it through. */
type ClientEvent = (typeof ClientEvents)[keyof typeof ClientEvents];
type MessageHandler = (
  socket: GameSocket,
  payload: unknown,
  ack: AckFn | undefined,
) => Promise<void>;

export type GameServiceConfig = Pick<
  Config,
  | 'ALLOWED_ORIGINS'
  | 'RATE_LIMIT_PER_SECOND'
  | 'RATE_LIMIT_BURST'
  | 'CHAT_FREE_TEXT'
  | 'TRUST_PROXY'
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
  onAttach?: (match: MatchRecord) => void;
  /** Turn clocks and absences are measured with it; tests move it by hand. */
  time?: TimeSource;
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs?: number;
  /** Per-address limits at the door; without them only the per-socket rate applies. */
  limits?: ConnectionLimits;
  /** Chat lines per client address (see MatchChat); without it only each socket's count applies. */
  chatLinesPerAddress?: RateLimiterAbstract;
}

/**
 * The socket.io game service, one module per job: the socket guard (origin, per-address
 * limits, rate, size), the seat sessions (sync, attach, detach, presence, delivery), moves,
 * clocks, and the one way a match ends. Every message is validated; whatever is refused gets
 * a reason, and the socket is re-synced.
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
  private readonly nsp: GameNamespace;
  private readonly guard: SocketGuard;
  private readonly sessions: SeatSessions;
  private readonly clocks: MatchClocks;
  private readonly ending: MatchEnding;
  private readonly moves: MatchMoves;
  private readonly chat: MatchChat;
  private readonly onMessage: (this: GameSocket, event: unknown, ...args: unknown[]) => void;
  private readonly onLeave: (this: GameSocket) => void;
  /** Absences before this instance started are counted from here at the earliest. */
  readonly startedAt: number;

  constructor(
    http: HttpServer,
    private readonly deps: GameServiceDeps,
  ) {
    const fanout = deps.fanout ?? localFanout();
    const time = deps.time ?? systemTime;
    const { store, queues, metrics, logger } = deps;
    this.startedAt = time.now();
    const closing = () => this.closing;
    this.guard = new SocketGuard({
      config: deps.config,
      metrics,
      logger,
      limits: deps.limits,
      closing,
      resync: (socket) => this.sessions.resync(socket),
    });
    this.io = new Server(http, {
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: TRANSPORT_LIMIT,
      allowRequest: this.guard.allowRequest,
    });
    this.nsp = this.io.of(GAME_NAMESPACE);
    const refuse = this.guard.refuse.bind(this.guard);
    this.sessions = new SeatSessions({
      nsp: this.nsp,
      store,
      queues,
      presence: deps.presence,
      metrics,
      logger,
      fanout,
      time,
      graceMs: deps.graceMs ?? 60_000,
      startedAt: this.startedAt,
      refuse,
      closing,
      onAttach: deps.onAttach,
      onLeave: (matchID) => this.matchChanged(matchID),
      onSynced: (socket, match) => this.chat.sendHistory(socket, match),
      onPresence: (match) => this.chat.presenceChanged(match),
    });
    this.chat = new MatchChat({
      nsp: this.nsp,
      store,
      metrics,
      logger,
      fanout,
      time,
      config: deps.config,
      linesPerAddress: deps.chatLinesPerAddress,
      refuse: this.guard.answer.bind(this.guard),
    });
    this.clocks = new MatchClocks({
      store,
      queues,
      logger,
      time,
      timeIsUp: (match, now) => this.ending.onTime(match, now),
    });
    this.ending = new MatchEnding({
      store,
      queues,
      forgetPlay: (matchID) => {
        this.clocks.clear(matchID);
        deps.engine.forget(matchID);
      },
      announce: (match) => this.sessions.announce(match),
    });
    this.moves = new MatchMoves({
      engine: deps.engine,
      queues,
      metrics,
      logger,
      fanout,
      time,
      sessions: this.sessions,
      clocks: this.clocks,
      ending: this.ending,
      refuse,
    });
    const service = this;
    this.onMessage = function (this: GameSocket, event: unknown, ...args: unknown[]) {
      service.message(this, event, args);
    };
    this.onLeave = function (this: GameSocket) {
      service.left(this);
    };
    // Only the game namespace serves anything.
    this.io.on('connection', (socket) => socket.disconnect(true));
    this.nsp.on('connection', (socket: GameSocket) => this.connected(socket));
  }

  /**
   * Each message's handler, by event. Shared by every socket (as are `onMessage` and
   * `onLeave`, which socket.io calls with the socket as `this`): a closure per socket and event
   * was a sixth of the heap an idle match costs beyond its two sockets.
   */
  private readonly handlers: ReadonlyMap<string, MessageHandler> = new Map(
    Object.entries({
      [ClientEvents.sync]: (socket, payload, ack) => this.sessions.sync(socket, payload, ack),
      [ClientEvents.update]: (socket, payload, ack) => this.moves.update(socket, payload, ack),
      [ClientEvents.chat]: (socket, payload, ack) => this.chat.say(socket, payload, ack),
      [ClientEvents.chatSettings]: (socket, payload, ack) => this.chat.settle(socket, payload, ack),
    } satisfies Record<ClientEvent, MessageHandler>),
  );

  private message(socket: GameSocket, event: unknown, args: unknown[]): void {
    const { guard } = this;
    const handler = this.handlers.get(String(event));
    if (handler) {
      void guard.guard(socket, args, (payload, ack) => handler(socket, payload, ack));
      return;
    }
    const name = String(event).slice(0, 32);
    const ack = args.filter((a) => typeof a === 'function');
    void guard.guard(socket, [null, ...ack.slice(-1)], async (_payload, answer) =>
      guard.refuse(socket, { code: 'BAD_MESSAGE', message: `unknown event '${name}'` }, answer),
    );
  }

  private left(socket: GameSocket): void {
    this.guard.forget(socket);
    this.deps.metrics.sockets.dec();
    this.sessions.detach(socket);
    this.socketLeft?.();
  }

  private connected(socket: GameSocket): void {
    this.guard.admit(socket);
    this.deps.metrics.sockets.inc();
    socket.onAny(this.onMessage);
    socket.on('disconnect', this.onLeave);
  }

  /** Since when a disconnected seat counts as away (the referee asks). */
  awaySince(match: MatchRecord, seat: Seat): number {
    return this.sessions.awaySince(match, seat);
  }

  /** A socket left, a seat was taken or a match ended through the lobby: tell the match's sockets. */
  matchChanged(matchID: string): void {
    const { queues, store, logger } = this.deps;
    void queues
      .run(matchID, async () => {
        const match = await store.getMatch(matchID);
        if (!match) return;
        const timed = await this.clocks.startClock(match);
        this.clocks.track(timed);
        await this.sessions.announce(timed);
      })
      .catch((error) => logger.error({ err: error, matchID }, 'presence push failed'));
  }

  /** Arms the timers of every match in play with a running clock (on start). */
  resumeClocks(): Promise<void> {
    return this.clocks.resume();
  }

  /** The one way a match ends, from the lobby or the referee (see MatchEnding). */
  readonly finish: FinishMatch = (matchID, result, now) => this.ending.finish(matchID, result, now);

  /**
   * Tells every socket to reconnect now, so clients need not wait out their backoff: the
   * HTTP server no longer accepts connections, so behind the proxy they land on another
   * server. Resolves when all have left, or after RESTART_NOTICE_MS for clients that ignore it.
   */
  private sendSocketsAway(): Promise<void> {
    const game = this.nsp;
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
    this.clocks.stop();
    this.closing = true;
    await this.deps.queues.drain();
    await this.sendSocketsAway();
    // io.close() drops the transports without socket.io's DISCONNECT packet: a client told
    // 'io server disconnect' would never reconnect by itself; after 'transport close' it does.
    await new Promise<void>((resolve) => this.io.close(() => resolve()));
  }
}
