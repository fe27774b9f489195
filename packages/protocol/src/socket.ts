import {
  type LogEntry,
  MAX_DRAFTED_CUBES,
  MOVE_ARGUMENTS,
  MOVE_NAMES,
  type MoveArgument,
  type RulesContext,
  type State,
} from '@iron-curtain/game';
import { applyPatch, type Operation } from 'rfc6902';
import { z } from 'zod/mini';
import { chatRefusalCodes } from './chat.ts';
import {
  clockStateSchema,
  credentialsSchema,
  matchIdSchema,
  matchResultSchema,
  matchStatusSchema,
  rematchStateSchema,
  seatRatingChangeSchema,
  seatSchema,
  sideSchema,
  unratedReasonSchema,
} from './lobby.ts';

/** The socket.io namespace of the game service. Clients send `matchID` in the handshake query too, so a proxy can route every socket of one match to one instance. */
export const GAME_NAMESPACE = '/game';

/** Largest message the server reads, in bytes. */
export const MAX_MESSAGE_BYTES = 16 * 1024;

export const ClientEvents = {
  sync: 'sync',
  update: 'update',
  chat: 'chat',
  chatSettings: 'chatSettings',
} as const;
export const ServerEvents = {
  sync: 'sync',
  update: 'update',
  presence: 'presence',
  refused: 'refused',
  chat: 'chat',
  /** This server is shutting down: come back as its RestartNotice says (behind a proxy, to another server). */
  restarting: 'restarting',
} as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const nonNegative = z.int().check(z.nonnegative());
const coordinate = z.int().check(z.minimum(-100), z.maximum(100));

const cardArgument = z.string().check(z.minLength(1), z.maxLength(64));

/** How each kind of move argument looks on the wire: the bounds a message may not pass. */
const argumentSchemas = {
  side: sideSchema,
  card: cardArgument,
  cell: z.strictObject({ x: coordinate, y: coordinate }),
  action: z.enum(['event', 'command']),
  yesNo: z.boolean(),
  // The cubes of a confirmed draft: each placeCube's arguments, [card] or [card, card].
  placements: z
    .array(z.union([z.tuple([cardArgument]), z.tuple([cardArgument, cardArgument])]))
    .check(z.minLength(1), z.maxLength(MAX_DRAFTED_CUBES)),
} satisfies Record<MoveArgument, z.ZodMiniType>;

/** A move's arguments in any of the forms the game's table allows it. */
function argsSchemaOf(forms: readonly (readonly MoveArgument[])[]): z.ZodMiniType {
  const tuples = forms.map((form) => {
    const items: z.ZodMiniType[] = form.map((kind) => argumentSchemas[kind]);
    return items.length === 0 ? z.tuple([]) : z.tuple(items as [z.ZodMiniType, ...z.ZodMiniType[]]);
  });
  return tuples.length === 1 ? (tuples[0] as z.ZodMiniType) : z.union(tuples);
}

/**
 * A move as the wire carries it; the arguments each move takes come from the game's table
 * (MOVE_ARGUMENTS), so anything else is refused before the engine sees it.
 */
const makeMovePayload = z.discriminatedUnion(
  'type',
  MOVE_NAMES.map((type) =>
    z.strictObject({
      type: z.literal(type),
      args: argsSchemaOf(MOVE_ARGUMENTS[type]),
      playerID: seatSchema,
    }),
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
const stateFrameSchema = z.object({
  G: z.custom<State>(isObject),
  stateID: nonNegative,
  /** The match's clock when it has one, as of this state. */
  clock: z.optional(clockStateSchema),
});
export type StateFrame = z.infer<typeof stateFrameSchema>;

const seatPresence = z.object({
  name: z.nullable(z.string()),
  /**
   * The account holding the seat (its profile: /@/<account>); null: none. Told again as soon
   * as a seat joins an account (its player signed in elsewhere), so the table marks it at once.
   */
  account: z.optional(z.nullable(z.string())),
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
  /** Rated play: whether the match counts (absent: unrated), and at its end each seat's change. */
  rated: z.optional(z.boolean()),
  unrated: z.optional(z.nullable(unratedReasonSchema)),
  ratings: z.optional(z.nullable(z.array(seatRatingChangeSchema))),
});
export type Presence = z.infer<typeof presenceSchema>;

/**
 * When a socket of a stopping server should come back. A server that knows of another live
 * instance (behind the proxy, it is there at once) says 0; a lone server is back only once its
 * successor listens. Either way a whole crowd must not knock at the same instant: a client
 * reconnects `backInMs` plus a random share of `spreadMs` after the notice, then, until
 * connected, about every `max(spreadMs, 250)` ms. A seated player is told 0 and 0: back
 * first, and fast.
 */
export const restartNoticeSchema = z.object({
  backInMs: nonNegative,
  spreadMs: nonNegative,
});
export type RestartNotice = z.infer<typeof restartNoticeSchema>;

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

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A key as a JSON Pointer token (RFC 6901). */
const token = (key: string) =>
  key.includes('~') || key.includes('/') ? key.replace(/~/g, '~0').replace(/\//g, '~1') : key;

/**
 * Appends the operations that turn `input` into `output` (plain JSON) at `path`. Written here
 * rather than taken from rfc6902's createPatch, which cost 9-11 % of the server's time per move
 * (a pointer object per visited node, an edit-distance search per array): the engine's states
 * come from immer, so an unchanged part of the view is the same object and skipped at once, and
 * a view's arrays only grow at their end or change in place (the table, the queue) or are a few
 * cards long (hands), so they are compared element by element and replaced whole where one
 * shrank.
 */
function diffView(input: unknown, output: unknown, path: string, ops: Operation[]): void {
  if (input === output) return;
  if (Array.isArray(input) && Array.isArray(output)) {
    if (output.length < input.length) {
      ops.push({ op: 'replace', path, value: output });
      return;
    }
    for (let i = 0; i < input.length; i++) {
      if (input[i] !== output[i]) diffView(input[i], output[i], `${path}/${i}`, ops);
    }
    for (let i = input.length; i < output.length; i++)
      ops.push({ op: 'add', path: `${path}/-`, value: output[i] });
    return;
  }
  if (isRecord(input) && isRecord(output)) {
    // Object.keys, not for-in: in Node 26's V8 a for-in whose body reads `input[key]` is
    // optimised and thrown away again and again on a view's many shapes, which made this walk
    // several times slower (bench/results.md, session 22).
    for (const key of Object.keys(input)) {
      const value = input[key];
      // Most of a view is unchanged: no pointer is built for a part that is the same object.
      if (value === undefined || value === output[key]) continue;
      const at = `${path}/${token(key)}`;
      if (output[key] === undefined) ops.push({ op: 'remove', path: at });
      else diffView(value, output[key], at, ops);
    }
    for (const key of Object.keys(output)) {
      const value = output[key];
      if (value !== undefined && input[key] === undefined)
        ops.push({ op: 'add', path: `${path}/${token(key)}`, value });
    }
    return;
  }
  ops.push({ op: 'replace', path, value: output });
}

/** The patch that turns one view into the next (server side). */
export function viewPatch(before: State, after: State): Operation[] {
  const ops: Operation[] = [];
  diffView(before, after, '', ops);
  return ops;
}

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
  ...chatRefusalCodes,
] as const;

/** server -> client 'refused' (and the ack, when the client asked for one): why a message did nothing. */
export const refusedMessageSchema = z.object({
  code: z.enum(refusalCodes),
  message: z.string(),
});
export type RefusedMessage = z.infer<typeof refusedMessageSchema>;

export type Ack = { ok: true } | { ok: false; error: RefusedMessage };
