import type { Server as HttpServer } from 'node:http';
import type { Seat } from '@iron-curtain/game';
import {
  ClientEvents,
  GAME_NAMESPACE,
  MAX_MESSAGE_BYTES,
  type RefusedMessage,
  type RestartNotice,
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
import { jsonSocketParser } from '../edge/socket-parser.ts';
import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import type { MatchRecord, Stores } from '../storage/index.ts';
import { MatchChat } from './chat.ts';
import { type FinishMatch, MatchEnding } from './ending.ts';
import type { MatchEngine } from './engine.ts';
import { type Fanout, localFanout } from './fanout.ts';
import { MatchRooms } from './match-rooms.ts';
import { MatchMoves } from './moves.ts';
import type { PresenceBook } from './presence-book.ts';
import type { MatchWrite, RoomEvent } from './room.ts';
import { SeatSessions } from './seat-sessions.ts';
import { type SessionLookup, SessionTies } from './session-ties.ts';
import { TurnClock } from './turn-clock.ts';
import { TurnNews, type TurnNotifier } from './turn-news.ts';

/**
 * A stopping server's cost per socket (the disconnects, the rooms' leaves, the close frames),
 * ms: 5,000 sockets took 1.8 s under the crowd benchmark's load (bench/results.md, issue 38).
 */
const STOP_MS_PER_SOCKET = 0.3;
/**
 * The window a crowd's return is spread over, per socket, ms: about the pace a server takes
 * sockets back (a handshake and a sync, 0.65-0.9 ms each in the same benchmark), a little
 * faster, so that the joins queue rather than the server waiting for the last arrivals.
 */
const SPREAD_MS_PER_SOCKET = 0.5;
const SPREAD_MAX_MS = 5000;
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
  /** The stores of a live match: its record, state and moves, its chat, its seats' accounts. */
  stores: Pick<Stores, 'matches' | 'chat'> & Partial<Pick<Stores, 'accountSeats'>>;
  engine: MatchEngine;
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
  /** Tells seats of their turns and results by push; without it nobody is told outside the table. */
  notifier?: TurnNotifier;
  /** Signed-in players' sessions; without it no socket is tied to one. */
  sessions?: SessionLookup;
}

/**
 * The socket.io game service: the socket guard (origin, per-address limits, rate, size) at
 * the door, then each message, checked against its schema and the socket's seating, is told
 * to its match's room (see MatchRoom), which handles it in turn. Whatever is refused gets a
 * reason, and the socket is re-synced.
 *
 * With several instances, any of them may take a move: the store's compare-and-set lets
 * exactly one writer win, the loser refuses (STALE_STATE) and re-syncs its socket, and only
 * a stored state is ever sent, here and, through the fan-out, on every other instance.
 */
export class GameService {
  readonly io: Server<ClientToServer, ServerToClient, Record<string, never>, SocketData>;
  private closing = false;
  private readonly nsp: GameNamespace;
  private readonly guard: SocketGuard;
  private readonly rooms: MatchRooms;
  private readonly sessions: SeatSessions;
  private readonly moves: MatchMoves;
  private readonly chat: MatchChat;
  private readonly onMessage: (this: GameSocket, event: unknown, ...args: unknown[]) => void;
  private readonly onLeave: (this: GameSocket) => void;
  private readonly fanout: Fanout;
  /** Signed-in players' sockets and their sessions. */
  readonly ties: SessionTies | undefined;
  /** Absences before this instance started are counted from here at the earliest. */
  readonly startedAt: number;

  constructor(
    http: HttpServer,
    private readonly deps: GameServiceDeps,
  ) {
    const fanout = deps.fanout ?? localFanout();
    this.fanout = fanout;
    const time = deps.time ?? systemTime;
    const { stores, metrics, logger, engine, config } = deps;
    const { matches } = stores;
    this.startedAt = time.now();
    const closing = () => this.closing;
    // The server is attached to the HTTP server last, once its door (the guard) exists: the
    // parts below need the namespace, and the guard re-syncs through the rooms.
    this.io = new Server({
      transports: ['websocket'],
      serveClient: false,
      maxHttpBufferSize: TRANSPORT_LIMIT,
      parser: jsonSocketParser,
    });
    this.nsp = this.io.of(GAME_NAMESPACE);
    const answer = (socket: GameSocket, error: RefusedMessage, ack?: AckFn) =>
      this.guard.answer(socket, error, ack);
    const refuse = (socket: GameSocket, error: RefusedMessage, ack?: AckFn) =>
      this.guard.refuse(socket, error, ack);
    const nsp = this.nsp;
    const news = new TurnNews({ notifier: deps.notifier, presence: deps.presence, logger });
    const clock = new TurnClock({ matches, time });
    this.chat = new MatchChat({
      nsp,
      chat: stores.chat,
      metrics,
      fanout,
      time,
      config,
      linesPerAddress: deps.chatLinesPerAddress,
      refuse: answer,
    });
    this.sessions = new SeatSessions({
      nsp,
      matches,
      presence: deps.presence,
      metrics,
      logger,
      fanout,
      time,
      chat: this.chat,
      graceMs: deps.graceMs ?? 60_000,
      startedAt: this.startedAt,
      refuse,
      onAttach: deps.onAttach,
    });
    const ending = new MatchEnding({ matches, time });
    this.moves = new MatchMoves({ engine, metrics, logger, time, refuse });
    this.rooms = new MatchRooms({
      matches,
      accountSeats: deps.stores.accountSeats,
      logger,
      fanout,
      closing,
      parts: {
        sessions: this.sessions,
        moves: this.moves,
        clock,
        ending,
        chat: this.chat,
        news,
        refuse,
        answer,
        time,
      },
    });
    const rooms = this.rooms;
    this.guard = new SocketGuard({
      config,
      metrics,
      logger,
      limits: deps.limits,
      closing,
      resync: (socket) => GameService.resync(rooms, socket),
    });
    this.io.attach(http, { allowRequest: this.guard.allowRequest });
    const service = this;
    this.onMessage = function (this: GameSocket, event: unknown, ...args: unknown[]) {
      service.message(this, event, args);
    };
    this.onLeave = function (this: GameSocket) {
      service.left(this);
    };
    if (deps.sessions) {
      const ties = new SessionTies({ lookup: deps.sessions, time, logger });
      this.ties = ties;
      // Before 'connection': no message of the socket is handled untied.
      nsp.use((socket, next) => void ties.tie(socket).then(() => next()));
    }
    // Only the game namespace serves anything.
    this.io.on('connection', (socket) => socket.disconnect(true));
    this.nsp.on('connection', (socket: GameSocket) => this.connected(socket));
  }

  /** The whole picture again for a socket whose message was refused, in its match's room. */
  private static async resync(rooms: MatchRooms, socket: GameSocket): Promise<void> {
    const seating = socket.data.seating;
    if (seating) await rooms.of(seating.matchID).tell({ kind: 'resync', socket });
  }

  /**
   * Each message's handler, by event: the checks at the door, then the match's room. Shared
   * by every socket (as are `onMessage` and `onLeave`, which socket.io calls with the socket
   * as `this`): a closure per socket and event was a sixth of the heap an idle match costs
   * beyond its two sockets.
   */
  private readonly handlers: ReadonlyMap<string, MessageHandler> = new Map(
    Object.entries({
      [ClientEvents.sync]: async (socket, payload, ack) => {
        const request = this.sessions.syncRequest(socket, payload, ack);
        if (!request) return GameService.resync(this.rooms, socket);
        return this.rooms.of(request.matchID).tell({ kind: 'sync', socket, request, ack });
      },
      [ClientEvents.update]: async (socket, payload, ack) => {
        const received = performance.now();
        const asked = this.moves.moveRequest(socket, payload, ack);
        if (!asked) return GameService.resync(this.rooms, socket);
        const { seat, request } = asked;
        return this.rooms
          .of(request.matchID)
          .tell({ kind: 'move', socket, seat, request, ack, received });
      },
      [ClientEvents.chat]: async (socket, payload, ack) => {
        const said = this.chat.lineRequest(socket, payload, ack);
        if (said) await this.rooms.of(said.matchID).tell({ kind: 'say', socket, said, ack });
      },
      [ClientEvents.chatSettings]: async (socket, payload, ack) => {
        const request = this.chat.settingsRequest(socket, payload, ack);
        if (request) {
          await this.rooms.of(request.matchID).tell({ kind: 'settle', socket, request, ack });
        }
      },
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
    this.rooms.detach(socket);
    this.ties?.left(socket);
  }

  private connected(socket: GameSocket): void {
    this.guard.admit(socket);
    this.ties?.connected(socket);
    this.deps.metrics.sockets.inc();
    socket.onAny(this.onMessage);
    socket.on('disconnect', this.onLeave);
  }

  /** Since when a disconnected seat counts as away (the referee asks). */
  awaySince(match: MatchRecord, seat: Seat): number {
    return this.rooms.awaySince(match, seat);
  }

  /**
   * A match changed through the lobby (a rematch linked to it, a seat joining an account): its
   * room tells everyone.
   */
  matchChanged(matchID: string): void {
    this.rooms.tell(matchID, { kind: 'changed' }, 'presence push failed');
  }

  /**
   * A lobby's write to a match (a seat taken, a rematch offered), made in the match's room in
   * its turn (see MatchWrite). Once the write is made its caller goes on: a failure to tell
   * everyone after it is logged, not answered.
   */
  readonly write: MatchWrite = (matchID, write, changed = () => true) =>
    new Promise((resolve, reject) => {
      let written = false;
      const event: RoomEvent = {
        kind: 'write',
        write: async () => {
          const value = await write();
          written = true;
          resolve(value);
          return changed(value);
        },
      };
      this.rooms
        .of(matchID)
        .tell(event)
        .catch((error) => {
          if (written) this.deps.logger.error({ err: error, matchID }, 'presence push failed');
          else reject(error);
        });
    });

  /** Arms the timers of every match in play with a running clock (on start). */
  resumeClocks(): Promise<void> {
    return this.rooms.resumeClocks();
  }

  /** The deadline sweep: the match's deadline is due, its room checks the clock (and ends it on time). */
  checkClock(matchID: string): Promise<void> {
    return this.rooms.of(matchID).tell({ kind: 'clock' });
  }

  /** The deadline sweep: a seat's correspondence deadline is a day ahead; its room tells the seat. */
  deadlineNear(matchID: string, seat: Seat, deadline: string): void {
    this.rooms.tell(matchID, { kind: 'deadline-near', seat, deadline }, 'deadline warning failed');
  }

  /** The one way a match ends, from the lobby or the referee, in the match's room (see MatchEnding). */
  readonly finish: FinishMatch = (matchID, result, now) =>
    new Promise<boolean>((resolve, reject) => {
      this.rooms.of(matchID).tell({ kind: 'finish', result, now, ended: resolve }).catch(reject);
    });

  /** Live matches with a room on this instance. */
  get liveRooms(): number {
    return this.rooms.size;
  }

  /**
   * Tells every socket when to come back (RestartNotice): a seated player at once, retrying
   * fast, behind the proxy to another server; the others spread over the time it would take
   * to join them again, so that a crowd does not knock at one instant, from the moment a
   * server could take them: at once when another instance is alive (`peers`; behind the
   * proxy, it takes them), or else once a successor could listen here (this server's stop
   * for its sockets, then `successorStartMs`), not to keep knocking at a closed port. The
   * HTTP server no longer accepts connections.
   */
  private sendSocketsAway(successorStartMs: number, peers: number): void {
    const sockets = this.nsp.sockets;
    if (sockets.size === 0) return;
    const players: string[] = [];
    for (const [id, socket] of sockets) {
      if (socket.data.seating?.seat != null) players.push(id);
    }
    const now: RestartNotice = { backInMs: 0, spreadMs: 0 };
    for (const id of players) sockets.get(id)?.emit(ServerEvents.restarting, now);
    const crowd = sockets.size - players.length;
    if (crowd === 0) return;
    // Each socket is in a room of its own id: the crowd's notice is encoded once.
    this.nsp.except(players).emit(ServerEvents.restarting, {
      backInMs: peers > 0 ? 0 : Math.round(successorStartMs + sockets.size * STOP_MS_PER_SOCKET),
      spreadMs: Math.min(SPREAD_MAX_MS, Math.round(crowd * SPREAD_MS_PER_SOCKET)),
    });
  }

  /** Resolves when every room has handled what was queued so far. */
  drain(): Promise<void> {
    return this.rooms.drain();
  }

  /**
   * Stops taking messages, lets queued moves finish, sends the sockets away, then closes.
   * `endConnections` ends whatever connections are still open once the transports are closed;
   * `successorStartMs`: how long the next process is expected to take to listen (this one's
   * own start), for the notice.
   */
  async close(endConnections: () => void, successorStartMs = 0): Promise<void> {
    this.rooms.stopClocks();
    this.ties?.stop();
    this.closing = true;
    // Counted while the queues drain: a lookup in Redis, not a wait added to the stop.
    const peers = this.fanout.peers();
    await this.rooms.drain();
    // The notice goes out before the close frames on every transport: nothing waits for the
    // clients to leave (a busy crowd took the whole second that wait allowed).
    this.sendSocketsAway(successorStartMs, await peers);
    // io.close() drops the transports without socket.io's DISCONNECT packet: a client told
    // 'io server disconnect' would never reconnect by itself; after 'transport close' it does.
    // It resolves once the HTTP server has closed, that is once every connection is gone, and
    // a websocket's goes only after its client answered the close handshake: with thousands
    // of clients busy reconnecting, seconds. So the connections are ended here instead, once
    // the transports have written their close frames (the turn after io.close() began).
    const closed = this.io.close();
    await new Promise<void>((resolve) => setImmediate(resolve));
    endConnections();
    await closed;
  }
}
