import type {
  Server as HttpServer,
  IncomingMessage,
  ServerOptions,
  ServerResponse,
} from 'node:http';
import type { Socket as TcpSocket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Counter } from 'prom-client';
import type { Socket } from 'socket.io';
import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { type ConnectQueue, longestBehind } from './connect-queue.ts';
import type { HeldSockets } from './held-sockets.ts';
import type { RateLimiters } from './rate-limiters.ts';
import { UpgradePace } from './upgrade-pace.ts';

export type ConnectionLimitsConfig = Pick<
  Config,
  | 'TRUST_PROXY'
  | 'SOCKETS_PER_ADDRESS'
  | 'SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND'
  | 'SOCKET_CONNECTS_AT_ONCE'
  | 'SOCKET_CONNECTS_HELD'
  | 'DOOR_HOLD_MS'
  | 'SYNC_TIMEOUT_MS'
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
>;

/** Why a limit refused or closed something, as counted in `ic_limits_refused_total`. */
export type ConnectionRefusal =
  | 'LOBBY_WRITES_PER_ADDRESS'
  | 'ACCOUNT_ATTEMPTS_PER_ADDRESS'
  | 'SOCKETS_PER_ADDRESS'
  | 'CONNECTS_PER_ADDRESS'
  | 'SYNC_TIMEOUT'
  | 'FLOODING'
  | 'HTTP_TIMEOUT'
  | 'BAD_HTTP';

/** A socket dropped for flooding puts its address this much further behind in its new sockets. */
const FLOOD_PENALTY_MS = 2_500;
/** Past its held turns, penalties put an address this much behind at most. */
const MOST_PENALTY_MS = 10_000;
/**
 * How long an address refused for the sockets it holds is turned away at the door without
 * asking the count again (with Redis, a round trip): one of its sockets closing here lifts it.
 */
const HELD_BAR_MS = 1_000;
/** The whole answer to a handshake turned away at the door: the least HTTP allows. */
const TOO_MANY_REQUESTS =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
const TOO_MANY_HEADERS = { Connection: 'close', 'Content-Length': '0' } as const;
/**
 * Handshakes held at the door at once, per address and in all (each holds a file descriptor):
 * past them a barred handshake is answered at once.
 */
const HELD_AT_DOOR_PER_ADDRESS = 32;
const HELD_AT_DOOR = 1_000;
/** Where socket.io answers: the only path the door guards (the lobby has its own limit). */
const SOCKET_PATH = '/socket.io/';
const ignore = () => undefined;

/**
 * A handshake opening a new socket: to the socket path, without the id of an open one (read as
 * engine.io reads it, so that no other parameter can pass for it).
 */
function isNewSocket(req: IncomingMessage): boolean {
  const url = req.url;
  if (url?.startsWith(SOCKET_PATH) !== true) return false;
  const query = url.indexOf('?');
  return query < 0 || !new URLSearchParams(url.slice(query + 1)).has('sid');
}

/**
 * The address a request comes from: the TCP peer, or behind a trusted proxy the last
 * X-Forwarded-For entry, the one that proxy added (earlier ones the client may have written).
 * The same rule as the lobby's (Koa's `proxy` with `maxIpsCount: 1`).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header: string | string[] | undefined = req.headers['x-forwarded-for'];
    const forwarded = Array.isArray(header) ? header.join(',') : header;
    // From the end, without splitting: every handshake of a flood asks this.
    let end = forwarded?.length ?? 0;
    while (forwarded && end > 0) {
      const comma = forwarded.lastIndexOf(',', end - 1);
      const entry = forwarded.slice(comma + 1, end).trim();
      if (entry.length > 0) return entry;
      end = comma;
    }
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * Addresses this instance knows to be over a budget, each until when (performance.now()),
 * and how many of their handshakes were turned away meanwhile. Two generations of at least
 * `generationMs` each: an address never seen again is forgotten without a timer or a sweep.
 */
class Bars {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private rotatedAt = performance.now();
  /** Handshakes turned away and not yet counted in the metrics. */
  turnedAway = 0;

  constructor(private readonly generationMs: number) {}

  bar(address: string, forMs: number): void {
    const now = performance.now();
    if (now - this.rotatedAt >= this.generationMs) {
      this.previous = this.current;
      this.current = new Map();
      this.rotatedAt = now;
    }
    this.current.set(address, now + Math.min(forMs, this.generationMs));
  }

  lift(address: string): void {
    this.current.delete(address);
    this.previous.delete(address);
  }

  /** How long the address stays barred from `now` (ms; 0: it is not). */
  barredFor(address: string, now: number): number {
    const until = this.current.get(address) ?? this.previous.get(address);
    return until !== undefined && until > now ? until - now : 0;
  }

  /** Whether the address was last barred after `at` (performance.now()), for a whole generation. */
  barredAfter(address: string, at: number): boolean {
    const until = this.current.get(address) ?? this.previous.get(address);
    return until !== undefined && until - this.generationMs > at;
  }
}

/** Node's HTTP timeouts: a request whose headers or body crawl in (slowloris) is closed. */
export function httpServerOptions(config: ConnectionLimitsConfig): ServerOptions {
  return {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    // How often Node looks for them (30 s by default, which would let them linger).
    connectionsCheckingInterval: Math.min(1000, config.HTTP_HEADERS_TIMEOUT_MS),
  };
}

/**
 * Per-address limits at the game service's door: sockets held at once and new sockets per
 * second (both shared through Redis when there is one), a deadline for the first sync, and a
 * cost for flooding. Every refusal is counted by reason.
 */
export class ConnectionLimits {
  private readonly refusals: Counter<'reason'>;
  private readonly connects: ConnectQueue;
  private readonly held: HeldSockets;
  /** Sockets that may still have to sync, by id: a socket that stays keeps no timer. */
  private readonly syncDeadlines = new Map<string, NodeJS.Timeout>();
  /**
   * One listener for every socket (socket.io calls it with the socket as `this`): a closure
   * per socket, with its `once` wrapper, was heap every idle socket kept.
   */
  private readonly onDisconnect: (this: Socket) => void;
  /** Addresses over their budget of new sockets, and over their share of sockets held. */
  private readonly connectBars: Bars;
  /** Addresses a socket of which was dropped for flooding, barred a generation from then. */
  private readonly floods: Bars;
  private readonly heldBars = new Bars(HELD_BAR_MS);
  /** Handshakes held at the door, by address, and how many in all. */
  private readonly holding = new Map<string, number>();
  private holdingTotal = 0;
  /** Upgrades let in: a crowd's handshakes a few per turn of the event loop. */
  readonly pace = new UpgradePace();

  constructor(
    private readonly config: ConnectionLimitsConfig,
    limiters: RateLimiters,
    metrics: Metrics,
    private readonly logger: Logger,
  ) {
    const queue = {
      perSecond: config.SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND,
      atOnce: config.SOCKET_CONNECTS_AT_ONCE,
      held: config.SOCKET_CONNECTS_HELD,
      mostPenaltyMs: MOST_PENALTY_MS,
    };
    this.connects = limiters.connectQueue(queue);
    // An address is refused at most until its held turns and its penalties have passed.
    this.connectBars = new Bars(longestBehind(queue));
    this.floods = new Bars(longestBehind(queue));
    const bars = [
      ['CONNECTS_PER_ADDRESS', this.connectBars],
      ['SOCKETS_PER_ADDRESS', this.heldBars],
    ] as const;
    this.refusals = new Counter({
      name: 'ic_limits_refused_total',
      help: 'Connections, sockets and lobby requests a limit refused or closed, by reason',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
      // Handshakes turned away at the door are added when the metrics are read, not one by one.
      collect() {
        for (const [reason, bar] of bars) {
          if (bar.turnedAway > 0) this.inc({ reason }, bar.turnedAway);
          bar.turnedAway = 0;
        }
      },
    });
    this.held = limiters.heldSockets(config.SOCKETS_PER_ADDRESS);
    const limits = this;
    this.onDisconnect = function (this: Socket) {
      clearTimeout(limits.syncDeadlines.get(this.id));
      limits.syncDeadlines.delete(this.id);
      const address = clientAddress(this.request, limits.config.TRUST_PROXY);
      limits.held.release(address, this.id);
      limits.heldBars.lift(address);
    };
  }

  /**
   * Counts one refusal. Logged at debug only: a flood is thousands of refusals a second, and a
   * line for each would cost the server its time and the operator's disk (the counter shows it).
   */
  refused(reason: ConnectionRefusal, address?: string): void {
    this.refusals.inc({ reason });
    this.logger.debug({ address, reason }, 'connection refused');
  }

  /**
   * Whether a new socket from this request may open (its turn among its address's new sockets
   * was given at the door): the reason when not. A refused address is barred at the door (see
   * `guardDoor`) for as long as the refusal holds.
   */
  async admit(req: IncomingMessage): Promise<ConnectionRefusal | undefined> {
    const address = clientAddress(req, this.config.TRUST_PROXY);
    if (await this.held.full(address)) {
      this.heldBars.bar(address, HELD_BAR_MS);
      this.refused('SOCKETS_PER_ADDRESS', address);
      return 'SOCKETS_PER_ADDRESS';
    }
    return undefined;
  }

  /**
   * A new socket's turn among its address's (see ConnectQueue): `pass` at once, or later while
   * the handshake is still there and the address not barred meanwhile, or, past the address's
   * held turns, `refuse` and the address barred here until its next turn.
   */
  private async queue(
    address: string,
    gone: () => boolean,
    pass: () => void,
    refuse: (barredFor: number) => void,
  ): Promise<void> {
    const turn = await this.connects.enter(address);
    const givenAt = performance.now();
    if (gone()) return;
    if ('refusedForMs' in turn) {
      this.connectBars.bar(address, turn.refusedForMs);
      this.refused('CONNECTS_PER_ADDRESS', address);
      refuse(turn.refusedForMs);
    } else if (turn.waitMs < 1) {
      pass();
    } else {
      setTimeout(() => {
        if (gone()) return;
        // A socket of the address was dropped for flooding while this one waited: its turn
        // went with it (a flood's held handshakes would otherwise all come in after it).
        if (this.floods.barredAfter(address, givenAt)) {
          this.connectBars.bar(address, FLOOD_PENALTY_MS);
          this.refused('CONNECTS_PER_ADDRESS', address);
          refuse(FLOOD_PENALTY_MS);
        } else {
          pass();
        }
      }, turn.waitMs);
    }
  }

  /**
   * Puts the door in front of socket.io on `http` (call once socket.io and the lobby listen on
   * it). A new socket's handshake waits here for its turn among its address's (`queue`), before
   * engine.io reads it. A handshake to the socket path from an address this instance knows to be
   * over its budget is answered 429 and closed before engine.io parses it, builds its response and error
   * objects or asks `admit`, with no log line; only a count, added to the metrics when read.
   * A WebSocket upgrade (the handshake our clients use) is first held for half to all of what
   * is left of the refusal, at most DOOR_HOLD_MS: a client that reconnects whenever it is refused then waits instead of
   * knocking again at once, and refusing a flood costs a few answers a second instead of
   * thousands. A polling handshake is answered at once. The upgrades let in go on to socket.io
   * at the pace's turns (see UpgradePace), so a crowd's handshakes do not hold the other sockets.
   */
  guardDoor(http: HttpServer): void {
    const upgrades = http.listeners('upgrade') as ((...args: unknown[]) => void)[];
    const requests = http.listeners('request') as ((...args: unknown[]) => void)[];
    http.removeAllListeners('upgrade');
    http.removeAllListeners('request');
    http.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const address = clientAddress(req, this.config.TRUST_PROXY);
      const barredFor = this.turnsAway(req);
      if (barredFor > 0) {
        socket.on('error', ignore);
        this.holdThenRefuse(socket as TcpSocket, address, barredFor);
        return;
      }
      const pass = () =>
        this.pace.admit(socket, () => {
          for (const listener of upgrades) listener.call(http, req, socket, head);
        });
      if (!isNewSocket(req)) {
        pass();
        return;
      }
      socket.on('error', ignore);
      void this.queue(
        address,
        () => socket.destroyed,
        pass,
        (refusedFor) => this.holdThenRefuse(socket as TcpSocket, address, refusedFor),
      );
    });
    http.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (this.turnsAway(req) > 0) {
        res.writeHead(429, TOO_MANY_HEADERS).end();
        return;
      }
      const pass = () => {
        for (const listener of requests) listener.call(http, req, res);
      };
      if (!isNewSocket(req)) {
        pass();
        return;
      }
      void this.queue(
        clientAddress(req, this.config.TRUST_PROXY),
        () => req.socket.destroyed,
        pass,
        () => res.writeHead(429, TOO_MANY_HEADERS).end(),
      );
    });
  }

  /**
   * How long this handshake's address stays barred here (ms; 0: it is not, or the request is
   * not a handshake): counted when barred.
   */
  private turnsAway(req: IncomingMessage): number {
    if (req.url?.startsWith(SOCKET_PATH) !== true) return 0;
    const address = clientAddress(req, this.config.TRUST_PROXY);
    const now = performance.now();
    const connects = this.connectBars.barredFor(address, now);
    if (connects > 0) {
      this.connectBars.turnedAway += 1;
      return connects;
    }
    const held = this.heldBars.barredFor(address, now);
    if (held > 0) this.heldBars.turnedAway += 1;
    return held;
  }

  /**
   * Holds a barred upgrade (the client sent its request and waits for an answer) for half to
   * all of the time its address stays barred, at most DOOR_HOLD_MS, then answers 429 as engine.io aborts an
   * upgrade: one write, then the socket is gone. A client that leaves first is simply let go.
   */
  private holdThenRefuse(socket: TcpSocket, address: string, barredFor: number): void {
    const refuse = () => {
      socket.write(TOO_MANY_REQUESTS);
      socket.destroy();
    };
    const held = this.holding.get(address) ?? 0;
    // Each held for a random half to whole of it: the handshakes a refusal held are let go
    // spread out, not all at its end, where they would come back together.
    const holdMs = Math.min(barredFor, this.config.DOOR_HOLD_MS) * (0.5 + Math.random() / 2);
    if (holdMs < 1 || held >= HELD_AT_DOOR_PER_ADDRESS || this.holdingTotal >= HELD_AT_DOOR) {
      refuse();
      return;
    }
    this.holding.set(address, held + 1);
    this.holdingTotal += 1;
    socket.once('close', () => {
      this.holdingTotal -= 1;
      const left = (this.holding.get(address) ?? 1) - 1;
      if (left > 0) this.holding.set(address, left);
      else this.holding.delete(address);
    });
    // The client sends nothing more while it waits: the idle timeout is the hold.
    socket.setTimeout(Math.ceil(holdMs), refuse);
  }

  /**
   * Counts an open socket against its address until it closes, and closes it unless
   * `synced(socket)` holds within SYNC_TIMEOUT_MS. A socket admitted together with others past the
   * address's share is closed once the count says so (its handlers are set at once meanwhile,
   * so no message of an admitted socket is lost).
   */
  attach<S extends Socket>(socket: S, synced: (socket: S) => boolean): void {
    const address = clientAddress(socket.request, this.config.TRUST_PROXY);
    void this.held.take(address, socket.id).then((taken) => {
      if (!taken) {
        this.heldBars.bar(address, HELD_BAR_MS);
        this.refused('SOCKETS_PER_ADDRESS', address);
        socket.disconnect(true);
      } else if (socket.disconnected) {
        this.held.release(address, socket.id);
      }
    });
    const deadline = setTimeout(() => {
      this.syncDeadlines.delete(socket.id);
      if (socket.connected && !synced(socket)) {
        this.refused('SYNC_TIMEOUT', address);
        socket.disconnect(true);
      }
    }, this.config.SYNC_TIMEOUT_MS);
    this.syncDeadlines.set(socket.id, deadline);
    socket.on('disconnect', this.onDisconnect);
  }

  /**
   * A socket is being dropped for flooding: its address pays in new connections, and is barred
   * here for as long; its handshakes held for a turn are refused when their turn comes.
   */
  flooded(socket: Socket): void {
    const address = clientAddress(socket.request, this.config.TRUST_PROXY);
    this.refused('FLOODING', address);
    this.connects.penalize(address, FLOOD_PENALTY_MS);
    this.connectBars.bar(address, FLOOD_PENALTY_MS);
    this.floods.bar(address, Number.POSITIVE_INFINITY);
  }

  /** Counts HTTP requests Node refused (too slow, malformed) and answers them as Node would. */
  clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const timeout = error.code === 'ERR_HTTP_REQUEST_TIMEOUT';
    this.refused(timeout ? 'HTTP_TIMEOUT' : 'BAD_HTTP');
    socket.end(
      timeout
        ? 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n'
        : 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n',
    );
  }
}
