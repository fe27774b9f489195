import type { IncomingMessage, ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { Counter } from 'prom-client';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Socket } from 'socket.io';
import type { Config } from './config.ts';
import type { HeldSockets } from './held-sockets.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';
import { type RateLimiters, spend } from './rate-limiters.ts';

export type ConnectionLimitsConfig = Pick<
  Config,
  | 'TRUST_PROXY'
  | 'SOCKETS_PER_ADDRESS'
  | 'SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND'
  | 'SYNC_TIMEOUT_MS'
  | 'HTTP_HEADERS_TIMEOUT_MS'
  | 'HTTP_REQUEST_TIMEOUT_MS'
>;

/** Why a limit refused or closed something, as counted in `ic_limits_refused_total`. */
export type ConnectionRefusal =
  | 'LOBBY_WRITES_PER_ADDRESS'
  | 'SOCKETS_PER_ADDRESS'
  | 'CONNECTS_PER_ADDRESS'
  | 'SYNC_TIMEOUT'
  | 'FLOODING'
  | 'HTTP_TIMEOUT'
  | 'BAD_HTTP';

/** New sockets are counted over this window, so a school reconnecting at once fits in it. */
const CONNECT_WINDOW_SECONDS = 10;
/** A socket dropped for flooding costs its address this share of its window's connections. */
const FLOOD_PENALTY_SHARE = 0.25;

/**
 * The address a request comes from: the TCP peer, or behind a trusted proxy the last
 * X-Forwarded-For entry, the one that proxy added (earlier ones the client may have written).
 * The same rule as the lobby's (Koa's `proxy` with `maxIpsCount: 1`).
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const last = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a.length > 0)
      .at(-1);
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
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
  private readonly connects: RateLimiterAbstract;
  private readonly connectPoints: number;
  private readonly held: HeldSockets;
  /** Sockets that may still have to sync, by id: a socket that stays keeps no timer. */
  private readonly syncDeadlines = new Map<string, NodeJS.Timeout>();
  /**
   * One listener for every socket (socket.io calls it with the socket as `this`): a closure
   * per socket, with its `once` wrapper, was heap every idle socket kept.
   */
  private readonly onDisconnect: (this: Socket) => void;

  constructor(
    private readonly config: ConnectionLimitsConfig,
    limiters: RateLimiters,
    metrics: Metrics,
    private readonly logger: Logger,
  ) {
    this.refusals = new Counter({
      name: 'ic_limits_refused_total',
      help: 'Connections, sockets and lobby requests a limit refused or closed, by reason',
      labelNames: ['reason'] as const,
      registers: [metrics.registry],
    });
    this.held = limiters.heldSockets(config.SOCKETS_PER_ADDRESS);
    const limits = this;
    this.onDisconnect = function (this: Socket) {
      clearTimeout(limits.syncDeadlines.get(this.id));
      limits.syncDeadlines.delete(this.id);
      limits.held.release(clientAddress(this.request, limits.config.TRUST_PROXY), this.id);
    };
    this.connectPoints = config.SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND * CONNECT_WINDOW_SECONDS;
    this.connects = limiters.create({
      name: 'socket-connects',
      points: this.connectPoints,
      duration: CONNECT_WINDOW_SECONDS,
      blockDuration: CONNECT_WINDOW_SECONDS,
    });
  }

  /**
   * Counts one refusal. Logged at debug only: a flood is thousands of refusals a second, and a
   * line for each would cost the server its time and the operator's disk (the counter shows it).
   */
  refused(reason: ConnectionRefusal, address?: string): void {
    this.refusals.inc({ reason });
    this.logger.debug({ address, reason }, 'connection refused');
  }

  /** Whether a new socket from this request may open: the reason when not. */
  async admit(req: IncomingMessage): Promise<ConnectionRefusal | undefined> {
    const address = clientAddress(req, this.config.TRUST_PROXY);
    let refusal: ConnectionRefusal | undefined;
    if (await this.held.full(address)) {
      refusal = 'SOCKETS_PER_ADDRESS';
    } else if (await spend(this.connects, address)) {
      refusal = 'CONNECTS_PER_ADDRESS';
    }
    if (refusal) this.refused(refusal, address);
    return refusal;
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

  /** A socket is being dropped for flooding: its address pays in new connections. */
  flooded(socket: Socket): void {
    const address = clientAddress(socket.request, this.config.TRUST_PROXY);
    this.refused('FLOODING', address);
    const penalty = Math.max(1, Math.floor(this.connectPoints * FLOOD_PENALTY_SHARE));
    void this.connects.penalty(address, penalty).catch(() => undefined);
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
