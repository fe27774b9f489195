import type { LogEntry, MoveName } from '@iron-curtain/game';
import { z } from 'zod/mini';
import {
  clockStateSchema,
  credentialsSchema,
  matchIdSchema,
  matchResultSchema,
  matchStatusSchema,
  rematchStateSchema,
  seatSchema,
  sideSchema,
} from './lobby.ts';

/** The socket.io namespace of the game service. Clients send `matchID` in the handshake query too, so a proxy can route every socket of one match to one instance. */
export const GAME_NAMESPACE = '/game';

/** Largest message the server reads, in bytes. */
export const MAX_MESSAGE_BYTES = 16 * 1024;

export const ClientEvents = { sync: 'sync', update: 'update' } as const;
export const ServerEvents = {
  sync: 'sync',
  update: 'update',
  presence: 'presence',
  refused: 'refused',
  /** No payload: this server is shutting down; reconnect at once (behind a proxy, to another server). */
  restarting: 'restarting',
} as const;

const cardId = z.string().check(z.minLength(1), z.maxLength(64));
const coordinate = z.int().check(z.minimum(-100), z.maximum(100));
const cell = z.strictObject({ x: coordinate, y: coordinate });
const nonNegative = z.int().check(z.nonnegative());

/** The arguments each move takes on the wire; anything else is refused before the engine sees it. */
export const moveArgsSchemas = {
  chooseFirstPlayer: z.tuple([sideSchema]),
  playCard: z.tuple([cardId, cell]),
  chooseAction: z.tuple([z.enum(['event', 'command'])]),
  decideEvent: z.tuple([z.boolean()]),
  placeCube: z.union([z.tuple([cardId]), z.tuple([cardId, cardId])]),
  removeCube: z.tuple([cardId]),
  moveCard: z.tuple([cardId, cell]),
  finishStep: z.tuple([]),
} satisfies Record<MoveName, z.ZodMiniType>;

const makeMovePayload = z.discriminatedUnion(
  'type',
  (Object.keys(moveArgsSchemas) as MoveName[]).map((type) =>
    z.strictObject({ type: z.literal(type), args: moveArgsSchemas[type], playerID: seatSchema }),
  ) as unknown as [z.ZodMiniObject, ...z.ZodMiniObject[]],
);

/** client -> server 'sync': attach this socket to a match as a seat (with credentials) or as a spectator (playerID null). */
export const syncRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  playerID: z.nullable(seatSchema),
  credentials: z.optional(credentialsSchema),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;

/** client -> server 'update': only MAKE_MOVE, for the seat this socket is synced as. */
export const updateRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  /** The state id the client saw; a stale id is refused and the socket re-synced. */
  stateID: nonNegative,
  action: z.strictObject({ type: z.literal('MAKE_MOVE'), payload: makeMovePayload }),
});
export type UpdateRequest = z.infer<typeof updateRequestSchema>;

/** The state a socket receives: its seat's view of G and boardgame.io's ctx. Never the plugins or the seed. */
export const stateFrameSchema = z.object({
  G: z.record(z.string(), z.unknown()),
  ctx: z.record(z.string(), z.unknown()),
  stateID: nonNegative,
  /** The match's clock when it has one, as of this state. */
  clock: z.optional(clockStateSchema),
});

const seatPresence = z.object({
  name: z.nullable(z.string()),
  connected: z.boolean(),
  /** How long the seat had been disconnected when this was sent (ms); null while connected. */
  awayMs: z.optional(z.nullable(nonNegative)),
});

export const presenceSchema = z.object({
  matchID: matchIdSchema,
  players: z.object({ '0': seatPresence, '1': seatPresence }),
  spectators: nonNegative,
  /** The match's lobby status: a match also ends when a seat leaves (resigns). */
  status: z.optional(matchStatusSchema),
  result: z.optional(z.nullable(matchResultSchema)),
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs: z.optional(nonNegative),
  /** The match's clock, now (a timeout ends the match without a state change). */
  clock: z.optional(z.nullable(clockStateSchema)),
  /** Rematch offers; `matchID` once both agreed: players and spectators move on to it. */
  rematch: z.optional(rematchStateSchema),
});
export type Presence = z.infer<typeof presenceSchema>;

/** server -> client 'sync': the whole picture for this socket's seat. */
export const syncMessageSchema = z.object({
  matchID: matchIdSchema,
  playerID: z.nullable(seatSchema),
  state: stateFrameSchema,
  /** Every public log entry so far, in order. */
  log: z.array(z.custom<LogEntry>()),
  presence: presenceSchema,
});
export type SyncMessage = z.infer<typeof syncMessageSchema>;

/** server -> client 'update': a new state after a move, with the log entries that move produced. */
export const updateMessageSchema = z.object({
  matchID: matchIdSchema,
  state: stateFrameSchema,
  entries: z.array(z.custom<LogEntry>()),
});
export type UpdateMessage = z.infer<typeof updateMessageSchema>;

export const refusalCodes = [
  'BAD_MESSAGE',
  'UNKNOWN_MATCH',
  'UNAUTHORIZED',
  'NOT_SYNCED',
  'NOT_YOUR_DECISION',
  'INVALID_MOVE',
  'STALE_STATE',
  'RATE_LIMITED',
  'TOO_LARGE',
  'SERVER_ERROR',
] as const;

/** server -> client 'refused' (and the ack, when the client asked for one): why a message did nothing. */
export const refusedMessageSchema = z.object({
  code: z.enum(refusalCodes),
  message: z.string(),
});
export type RefusedMessage = z.infer<typeof refusedMessageSchema>;

export type Ack = { ok: true } | { ok: false; error: RefusedMessage };
