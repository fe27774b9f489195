import type { IncomingMessage } from 'node:http';
import { MAX_MESSAGE_BYTES, type RefusedMessage, ServerEvents } from '@iron-curtain/protocol';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import type { z } from 'zod';
import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { ConnectionLimits } from './connection-limits.ts';
import type { AckFn, GameSocket } from './game-sockets.ts';
import { spend } from './rate-limiters.ts';

const FLOOD_LIMIT = 50;

/** Whether a socket has synced with a match (one function for every socket). */
const seated = (socket: GameSocket) => socket.data.seating !== undefined;

/**
 * The first problems (`most` of them) of a payload zod refused, as one line for the client: a
 * socket's refusal names 2, a lobby answer 3 (a request body has more fields).
 */
export const firstIssue = (error: z.core.$ZodError, most = 2): string =>
  error.issues
    .slice(0, most)
    .map((i) => (i.path.length > 0 ? `${i.path.join('.')}: ${i.message}` : i.message))
    .join('; ');

export interface SocketGuardDeps {
  config: Pick<Config, 'ALLOWED_ORIGINS' | 'RATE_LIMIT_PER_SECOND' | 'RATE_LIMIT_BURST'>;
  metrics: Metrics;
  logger: Logger;
  /** Per-address limits at the door; without them only the per-socket rate applies. */
  limits?: ConnectionLimits | undefined;
  /** True once the service is stopping: messages are refused from then on. */
  closing: () => boolean;
  /** Sends a socket whose message was refused the whole picture again. */
  resync: (socket: GameSocket) => Promise<void>;
}

/**
 * The game service's door: which connections get in (origin, per-address limits), and the
 * checks every message passes before any handler sees it (rate, size, shape), with the last
 * line of defence: nothing a client sends can throw out of here.
 */
export class SocketGuard {
  /** Messages per socket: RATE_LIMIT_BURST at once, RATE_LIMIT_PER_SECOND on average. */
  private readonly messages: RateLimiterMemory;

  constructor(private readonly deps: SocketGuardDeps) {
    const { RATE_LIMIT_BURST, RATE_LIMIT_PER_SECOND } = deps.config;
    this.messages = new RateLimiterMemory({
      keyPrefix: 'socket-messages',
      points: RATE_LIMIT_BURST,
      duration: RATE_LIMIT_BURST / RATE_LIMIT_PER_SECOND,
    });
  }

  /** socket.io's allowRequest: a browser's origin must be ours, and the address within its limits. */
  readonly allowRequest = (
    req: IncomingMessage,
    callback: (err: string | null | undefined, success: boolean) => void,
  ): void => {
    const { metrics, logger, limits } = this.deps;
    const allowed = this.originAllowed(req);
    if (!allowed) {
      metrics.rejections.inc({ code: 'BAD_ORIGIN' });
      logger.warn({ origin: req.headers.origin }, 'socket refused: origin not allowed');
    }
    if (!allowed || !limits) {
      callback(allowed ? null : 'origin not allowed', allowed);
      return;
    }
    void limits.admit(req).then((refusal) => callback(refusal ?? null, !refusal));
  };

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

  /** A new socket, counted against its address's limits until it closes. */
  admit(socket: GameSocket): void {
    // Every field from the start: one shape for every socket's data, with no property store of
    // its own. The session tie was made at the handshake, before.
    socket.data = {
      flooding: 0,
      seating: undefined,
      stateID: undefined,
      chatOpen: undefined,
      tie: socket.data.tie,
    };
    this.deps.limits?.attach(socket, seated);
  }

  /** The socket has gone: its message budget with it. */
  forget(socket: GameSocket): void {
    void this.messages.delete(socket.id);
  }

  /** Rate limit, size cap and shape of one message, then its handler. */
  async guard(
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
      if (this.deps.closing()) {
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
        await this.deps.resync(socket);
        return;
      }
      if (args.length !== 1) {
        this.refuse(socket, { code: 'BAD_MESSAGE', message: 'send exactly one payload' }, ack);
        await this.deps.resync(socket);
        return;
      }
      await handler(args[0], ack);
    } catch (error) {
      this.deps.logger.error({ err: error, socket: socket.id }, 'game service failure');
      this.refuse(socket, { code: 'SERVER_ERROR', message: 'the server failed; try again' }, ack);
      await this.deps.resync(socket).catch(() => undefined);
    }
  }

  /** Tells a socket (and its acknowledgement) why its message did nothing; counted and logged. */
  refuse(socket: GameSocket, error: RefusedMessage, ack?: AckFn): void {
    this.count(socket, error);
    socket.emit(ServerEvents.refused, error);
    ack?.({ ok: false, error });
  }

  /**
   * A refusal told in the acknowledgement alone when the client asked for one (the chat panel
   * shows its own refusals; the 'refused' event is the match's, about moves), else as 'refused'.
   */
  answer(socket: GameSocket, error: RefusedMessage, ack?: AckFn): void {
    if (!ack) {
      this.refuse(socket, error);
      return;
    }
    this.count(socket, error);
    ack({ ok: false, error });
  }

  /** Counted and logged; a flood's RATE_LIMITED at debug only, as the connection limits' refusals. */
  private count(socket: GameSocket, error: RefusedMessage): void {
    this.deps.metrics.rejections.inc({ code: error.code });
    this.deps.logger[error.code === 'RATE_LIMITED' ? 'debug' : 'info'](
      { socket: socket.id, matchID: socket.data.seating?.matchID, code: error.code },
      `refused: ${error.message}`,
    );
  }
}
