import type { LogEntry, MoveName, RulesContext, State } from '@iron-curtain/game';
import { applyPatch, type Operation, Pointer } from 'rfc6902';
import { type Diff, diffAny } from 'rfc6902/diff.js';
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

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

/**
 * The state a socket receives: its seat's view of the state (the engine's viewFor), and the
 * state id. Nothing else of boardgame.io's state travels: not ctx, never the plugins or seed.
 */
export const stateFrameSchema = z.object({
  G: z.custom<State>(isObject),
  stateID: nonNegative,
  /** The match's clock when it has one, as of this state. */
  clock: z.optional(clockStateSchema),
});
export type StateFrame = z.infer<typeof stateFrameSchema>;

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
  /** The match's deck and variants: sent once here, never in an update. */
  rules: z.custom<RulesContext>((v) => isObject(v) && isObject(v.deck) && isObject(v.variants)),
  state: stateFrameSchema,
  /** Every public log entry so far, in order. */
  log: z.array(z.custom<LogEntry>()),
  presence: presenceSchema,
});
export type SyncMessage = z.infer<typeof syncMessageSchema>;

/**
 * server -> client 'update': what a move changed in this socket's view, as an RFC 6902 JSON
 * Patch on the view at state `from`. A client holding any other state asks for a sync.
 */
export const updateMessageSchema = z.object({
  matchID: matchIdSchema,
  from: nonNegative,
  stateID: nonNegative,
  patch: z.array(z.custom<Operation>((op) => typeof op === 'object' && op !== null)),
  /** The match's clock when it has one, as of this state. */
  clock: z.optional(clockStateSchema),
  /** The public log entries the move produced. */
  entries: z.array(z.custom<LogEntry>()),
});
export type UpdateMessage = z.infer<typeof updateMessageSchema>;

/**
 * A view's arrays grow at their end or change in place (the table, the queue) or are a few
 * cards long (hands): compared element by element, and replaced whole where one shrank. This
 * spares rfc6902's edit-distance search over every array, the most of a move's patch cost.
 */
const diffView: Diff = (input, output, ptr) => {
  if (!Array.isArray(input) || !Array.isArray(output)) return diffAny(input, output, ptr, diffView);
  if (output.length < input.length) return [{ op: 'replace', path: ptr.toString(), value: output }];
  const ops = input.flatMap((item, i) => diffView(item, output[i], ptr.add(String(i))));
  for (const item of output.slice(input.length))
    ops.push({ op: 'add', path: ptr.add('-').toString(), value: item });
  return ops;
};

/** The patch that turns one view into the next (server side). */
export const viewPatch = (before: State, after: State): Operation[] =>
  diffView(before, after, new Pointer());

/**
 * The frame after an update, or null when the update does not apply to it (another base
 * state, or a patch that does not fit): then the client asks for a sync.
 */
export function applyUpdate(frame: StateFrame, update: UpdateMessage): StateFrame | null {
  if (update.from !== frame.stateID) return null;
  const G = structuredClone(frame.G);
  if (applyPatch(G, update.patch).some((error) => error !== null)) return null;
  return { G, stateID: update.stateID, ...(update.clock ? { clock: update.clock } : {}) };
}

export const refusalCodes = [
  'BAD_MESSAGE',
  'UNKNOWN_MATCH',
  'UNAUTHORIZED',
  'NOT_SYNCED',
  'NOT_YOUR_DECISION',
  'INVALID_MOVE',
  /** A move before the second seat is taken. */
  'WAITING_FOR_OPPONENT',
  /** A move after the match ended. */
  'MATCH_OVER',
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
