import type { Seat } from '@iron-curtain/game';
import type {
  Ack,
  ChatMessage,
  Presence,
  RefusedMessage,
  RestartNotice,
  SyncMessage,
  UpdateMessage,
} from '@iron-curtain/protocol';
import type { Namespace, Socket } from 'socket.io';

/** The match and seat a socket is attached to. */
export interface Seating {
  matchID: string;
  /** null: a spectator. */
  seat: Seat | null;
}

/** What the game service remembers about one socket. */
export interface SocketData {
  seating?: Seating;
  /** The state id this socket was last sent; an update is sent only on top of it. */
  stateID?: number;
  /** Refusals for rate in a row; a socket that keeps flooding is disconnected. */
  flooding: number;
  /** This socket was sent both chat rooms (the match had ended). */
  chatOpen?: boolean;
  /** A signed-in player's account and session, tied at the handshake (see SessionTies). */
  tie?: { accountID: string; sessionHash: string };
}

export interface ClientToServer {
  sync: (...args: unknown[]) => void;
  update: (...args: unknown[]) => void;
  chat: (...args: unknown[]) => void;
  chatSettings: (...args: unknown[]) => void;
}

export interface ServerToClient {
  sync: (message: SyncMessage) => void;
  update: (message: UpdateMessage) => void;
  presence: (message: Presence) => void;
  refused: (message: RefusedMessage) => void;
  chat: (message: ChatMessage) => void;
  restarting: (notice: RestartNotice) => void;
}

export type GameSocket = Socket<ClientToServer, ServerToClient, Record<string, never>, SocketData>;
export type GameNamespace = Namespace<
  ClientToServer,
  ServerToClient,
  Record<string, never>,
  SocketData
>;
export type AckFn = (ack: Ack) => void;
