import { type ClientEvents, GAME_NAMESPACE, ServerEvents } from '@iron-curtain/protocol';
import { io } from 'socket.io-client';
import { returnAfterRestart } from './restart-return.ts';

export type ServerEvent = 'sync' | 'update' | 'presence' | 'refused' | 'chat';
export type ClientEvent = (typeof ClientEvents)[keyof typeof ClientEvents];

/** The few things the game client needs from a socket; socket.io in the app, a fake in tests. */
export interface Transport {
  onConnect(listener: () => void): void;
  /** `willReconnect` is false only when this side closed the connection. */
  onDisconnect(listener: (willReconnect: boolean) => void): void;
  onReconnecting(listener: () => void): void;
  on(event: ServerEvent, listener: (payload: unknown) => void): void;
  /** Sends and waits for the server's acknowledgement; rejects after `timeoutMs`. */
  request(event: ClientEvent, payload: unknown, timeoutMs: number): Promise<unknown>;
  /** Sends without asking for an acknowledgement (the server then sends none). */
  send(event: ClientEvent, payload: unknown): void;
  open(): void;
  close(): void;
}

/** What a client outside the browser adds, in Node; engine.io passes both on to ws. */
export interface ConnectOptions {
  /** The local address to connect from: a test's players each bring an address of their own. */
  localAddress?: string;
  /**
   * An https.Agent: a test's client that trusts only its own ACME server's root and finds the
   * site's name by itself.
   */
  agent?: object;
}

/**
 * The game service at the page's own origin (or at `origin`): websocket only, reconnecting
 * on its own, and when a server that says it is restarting tells it to (restart-return.ts).
 */
export function socketTransport(
  matchID: string,
  origin = '',
  options: ConnectOptions = {},
): Transport {
  const { agent, ...rest } = options;
  const socket = io(`${origin}${GAME_NAMESPACE}`, {
    ...rest,
    // engine.io's type is its browser build's (a string or a flag); ws takes an Agent.
    ...(agent ? { agent: agent as unknown as string } : {}),
    autoConnect: false,
    transports: ['websocket'],
    query: { matchID },
    // The first retry after a lost connection comes within 125-375 ms (socket.io's jitter of
    // 0.5): behind the proxy another server is there at once.
    reconnectionDelay: 250,
    reconnectionDelayMax: 4000,
  });
  // A server going away says when to come back (a seat: now, behind the proxy another server
  // takes the match), not after the backoff.
  let restarting = false;
  let cancelReturn: (() => void) | undefined;
  socket.on(ServerEvents.restarting, (notice: unknown) => {
    restarting = true;
    cancelReturn?.();
    cancelReturn = returnAfterRestart(socket, notice);
  });
  socket.on('connect', () => {
    restarting = false;
    cancelReturn = undefined;
  });
  return {
    onConnect: (listener) => socket.on('connect', listener),
    onDisconnect: (listener) =>
      socket.on('disconnect', (reason) =>
        listener(restarting || reason !== 'io client disconnect'),
      ),
    onReconnecting: (listener) => {
      socket.io.on('reconnect_attempt', listener);
      socket.on('connect_error', listener);
    },
    on: (event, listener) => socket.on(event, listener),
    request: (event, payload, timeoutMs) => socket.timeout(timeoutMs).emitWithAck(event, payload),
    send: (event, payload) => void socket.emit(event, payload),
    open: () => socket.connect(),
    close: () => {
      cancelReturn?.();
      cancelReturn = undefined;
      restarting = false;
      socket.disconnect();
    },
  };
}
