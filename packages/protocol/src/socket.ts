import type { LogEntry, MoveName } from '@iron-curtain/game';
import { z } from 'zod';
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
} as const;

const cardId = z.string().min(1).max(64);
const cell = z.strictObject({
  x: z.number().int().min(-100).max(100),
  y: z.number().int().min(-100).max(100),
});

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
} satisfies Record<MoveName, z.ZodType>;

const makeMovePayload = z.discriminatedUnion(
  'type',
  (Object.keys(moveArgsSchemas) as MoveName[]).map((type) =>
    z.strictObject({ type: z.literal(type), args: moveArgsSchemas[type], playerID: seatSchema }),
  ) as unknown as [z.ZodObject, ...z.ZodObject[]],
);

/** client -> server 'sync': attach this socket to a match as a seat (with credentials) or as a spectator (playerID null). */
export const syncRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  playerID: seatSchema.nullable(),
  credentials: credentialsSchema.optional(),
});
export type SyncRequest = z.infer<typeof syncRequestSchema>;

/** client -> server 'update': only MAKE_MOVE, for the seat this socket is synced as. */
export const updateRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  /** The state id the client saw; a stale id is refused and the socket re-synced. */
  stateID: z.number().int().nonnegative(),
  action: z.strictObject({ type: z.literal('MAKE_MOVE'), payload: makeMovePayload }),
});
export type UpdateRequest = z.infer<typeof updateRequestSchema>;

/** The state a socket receives: its seat's view of G and boardgame.io's ctx. Never the plugins or the seed. */
export const stateFrameSchema = z.object({
  G: z.record(z.string(), z.unknown()),
  ctx: z.record(z.string(), z.unknown()),
  stateID: z.number().int().nonnegative(),
  /** The match's clock when it has one, as of this state. */
  clock: clockStateSchema.optional(),
});

const seatPresence = z.object({
  name: z.string().nullable(),
  connected: z.boolean(),
  /** How long the seat had been disconnected when this was sent (ms); null while connected. */
  awayMs: z.number().int().nonnegative().nullable().optional(),
});

export const presenceSchema = z.object({
  matchID: matchIdSchema,
  players: z.object({ '0': seatPresence, '1': seatPresence }),
  spectators: z.number().int().nonnegative(),
  /** The match's lobby status: a match also ends when a seat leaves (resigns). */
  status: matchStatusSchema.optional(),
  result: matchResultSchema.nullable().optional(),
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs: z.number().int().nonnegative().optional(),
  /** The match's clock, now (a timeout ends the match without a state change). */
  clock: clockStateSchema.nullable().optional(),
  /** Rematch offers; `matchID` once both agreed: players and spectators move on to it. */
  rematch: rematchStateSchema.optional(),
});
export type Presence = z.infer<typeof presenceSchema>;

/** server -> client 'sync': the whole picture for this socket's seat. */
export const syncMessageSchema = z.object({
  matchID: matchIdSchema,
  playerID: seatSchema.nullable(),
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
