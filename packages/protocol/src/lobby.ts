import { variantsSchema } from '@iron-curtain/game';
// zod's tree-shakable form: these schemas run in the browser too, where all of zod would
// be a third of the match page's first download.
import { z } from 'zod/mini';
import { matchIdPattern } from './match-id.ts';
import { plainTextProblem } from './plain-text.ts';

export const matchIdSchema = z.string().check(z.regex(matchIdPattern, 'not a match id'));
export const seatSchema = z.enum(['0', '1']);
export const sideSchema = z.enum(['US', 'USSR']);
export const playerNameSchema = z.string().check(
  z.trim(),
  z.minLength(1, 'enter a name'),
  z.maxLength(24, 'at most 24 characters'),
  z.refine((name) => plainTextProblem(name) !== 'blank', 'enter a name'),
  z.refine(
    (name) => plainTextProblem(name) !== 'notPlain',
    'plain text only: no control characters, markup or piled-up accents',
  ),
);
/** Secrets handed to one seat; at least 128 bits, base64url. */
export const credentialsSchema = z.string().check(z.minLength(22), z.maxLength(128));

const variantsRequest = z._default(z.partial(variantsSchema), {});

/**
 * Who can find a match: 'private' only with its links, 'public' listed for spectators, 'open'
 * listed for spectators and as an open challenge whose free seat anyone may take without the
 * invite.
 */
const visibilitySchema = z.enum(['public', 'private', 'open']);
export type Visibility = z.infer<typeof visibilitySchema>;

/** The days a correspondence turn may last: the choices a match is created with. */
export const DAYS_PER_TURN = [1, 2, 3, 5, 7] as const;
export const daysPerTurnSchema = z.literal(DAYS_PER_TURN, 'days per turn: 1, 2, 3, 5 or 7');
export type DaysPerTurn = z.infer<typeof daysPerTurnSchema>;

/**
 * The rating pools: a match with a clock of minutes counts in 'live', one with days per turn
 * (or no clock) in 'correspondence'.
 */
export const ratingPoolSchema = z.enum(['live', 'correspondence']);
export type RatingPool = z.infer<typeof ratingPoolSchema>;

/**
 * Why a match asked to be rated does not count: both seats are one account's, or it ended
 * before each seat played a card (it ended as aborted).
 */
export const unratedReasonSchema = z.enum(['same-account', 'aborted']);
export type UnratedReason = z.infer<typeof unratedReasonSchema>;

/** What a rated match's end did to one seat's rating (Glicko-2, rounded as shown). */
export const seatRatingChangeSchema = z.object({
  seat: seatSchema,
  before: z.number(),
  after: z.number(),
  /** after - before, rounded: the +12 / -12 shown. */
  change: z.int(),
  /** The rating after is provisional (shown with "?"). */
  provisional: z.boolean(),
});
export type SeatRatingChange = z.infer<typeof seatRatingChangeSchema>;

export const createMatchRequestSchema = z
  .strictObject({
    /** The creator's name; a signed-in player sits under the account's name and sends none. */
    name: z.optional(playerNameSchema),
    side: z._default(z.enum(['US', 'USSR', 'random']), 'random'),
    variants: variantsRequest,
    visibility: z._default(visibilitySchema, 'private'),
    /** A deck the server knows (see GET /api/decks): the default deck's id (its newest version), or the hash of any built-in version or uploaded deck; the default deck when absent. */
    deckId: z.optional(z.string().check(z.maxLength(64))),
    /** Minutes on each player's clock; no clock when absent. */
    clockMinutes: z.optional(
      z.int().check(z.minimum(1, 'at least 1 minute'), z.maximum(180, 'at most 180 minutes')),
    ),
    /**
     * Correspondence play: each turn (a seat's consecutive decisions) may last this many days,
     * afresh every turn; no clock of minutes then.
     */
    daysPerTurn: z.optional(daysPerTurnSchema),
    /** Who takes the other seat: a person with the invite link, or the computer at a level. */
    opponent: z._default(z.enum(['human', 'easy', 'medium', 'hard']), 'human'),
    /**
     * Rated play (signed-in creator, against a person): the result changes both players'
     * ratings in the pool of the match's clock.
     */
    rated: z.optional(z.boolean()),
  })
  .check(
    z.refine((request) => request.clockMinutes === undefined || request.daysPerTurn === undefined, {
      message: 'a match has minutes per player or days per turn, not both',
      path: ['daysPerTurn'],
    }),
  );
export type CreateMatchRequest = z.input<typeof createMatchRequestSchema>;

const botLevelSchema = z.enum(['easy', 'medium', 'hard']);

/** A match between two computer players, for demos: anyone may watch it. */
export const createBotMatchRequestSchema = z.strictObject({
  levels: z.strictObject({ US: botLevelSchema, USSR: botLevelSchema }),
  variants: variantsRequest,
});
export type CreateBotMatchRequest = z.input<typeof createBotMatchRequestSchema>;

export const createBotMatchResponseSchema = z.object({
  matchID: matchIdSchema,
  links: z.object({ spectate: z.string() }),
});
export type CreateBotMatchResponse = z.infer<typeof createBotMatchResponseSchema>;

/** What a seat learns when it takes a seat: its credentials go to it alone. */
export const seatGrantSchema = z.object({
  matchID: matchIdSchema,
  seat: seatSchema,
  side: sideSchema,
  credentials: credentialsSchema,
});
export type SeatGrant = z.infer<typeof seatGrantSchema>;

export const createMatchResponseSchema = z.extend(seatGrantSchema, {
  links: z.object({
    /** Path of the invite link (contains the invite token): takes the free seat. */
    invite: z.string(),
    /** Path of the spectator link: public view only. */
    spectate: z.string(),
  }),
});
export type CreateMatchResponse = z.infer<typeof createMatchResponseSchema>;

export const joinMatchRequestSchema = z.strictObject({
  /** As for a new match: a guest's name; a signed-in player sends none. */
  name: z.optional(playerNameSchema),
  /** The invite token from the link; an open challenge's seat needs none. */
  invite: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
});
export type JoinMatchRequest = z.input<typeof joinMatchRequestSchema>;

export const leaveMatchRequestSchema = z.strictObject({
  seat: seatSchema,
  credentials: credentialsSchema,
});
export type LeaveMatchRequest = z.input<typeof leaveMatchRequestSchema>;

export const matchStatusSchema = z.enum(['waiting', 'playing', 'finished']);
export type MatchStatus = z.infer<typeof matchStatusSchema>;

/**
 * How a match ended: 'track' or 'final' by the game, 'resigned' when a seat left a match in
 * play, 'timeout' when a seat's clock ran out, 'abandoned' when the opponent claimed the win
 * from a seat disconnected longer than the grace period.
 */
const matchEndReasonSchema = z.enum(['track', 'final', 'resigned', 'timeout', 'abandoned']);

export const matchResultSchema = z.object({
  winner: seatSchema,
  winnerSide: sideSchema,
  reason: matchEndReasonSchema,
});
export type MatchResult = z.infer<typeof matchResultSchema>;

/**
 * A match's clock as the server last computed it: each seat's time left, and whose time is
 * running (null when none is). The running seat's time goes down from the moment the message
 * was sent.
 */
export const clockStateSchema = z.object({
  perPlayerMs: z.int().check(z.positive()),
  remainingMs: z.object({ '0': z.int(), '1': z.int() }),
  running: z.nullable(seatSchema),
});
export type ClockState = z.infer<typeof clockStateSchema>;

/** Rematch offers after the end, and the match they led to once both seats agreed. */
export const rematchStateSchema = z.object({
  offers: z.array(seatSchema),
  matchID: z.nullable(matchIdSchema),
});
export type RematchState = z.infer<typeof rematchStateSchema>;

export const deckInfoSchema = z.object({
  id: z.string(),
  version: z.string(),
  name: z.string(),
  /** sha256 of the deck's canonical JSON: which exact deck the match was created with. */
  hash: z.string(),
  reconstructed: z.boolean(),
});
export type DeckInfo = z.infer<typeof deckInfoSchema>;

/** Public data about a match: safe for anyone holding its link. */
export const matchInfoSchema = z.object({
  matchID: matchIdSchema,
  status: matchStatusSchema,
  visibility: visibilitySchema,
  players: z.array(
    z.object({
      seat: seatSchema,
      side: sideSchema,
      name: z.nullable(z.string()),
      /** The account holding the seat (its profile: /@/<account>); null: a guest's seat. */
      account: z.optional(z.nullable(z.string())),
      /** A computer player holds the seat. */
      computer: z.optional(z.boolean()),
      connected: z.boolean(),
    }),
  ),
  spectators: z.int().check(z.nonnegative()),
  variants: variantsSchema,
  deck: deckInfoSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  result: z.nullable(matchResultSchema),
  clock: z.optional(z.nullable(clockStateSchema)),
  /** Correspondence play: the days each turn may last (the clock then shows the turn's time left); null: live play. */
  daysPerTurn: z.optional(z.nullable(daysPerTurnSchema)),
  rematch: z.optional(rematchStateSchema),
  /** The finished match this one is the rematch of. */
  rematchOf: z.optional(z.nullable(matchIdSchema)),
  /** The match was created rated (see `unrated` for one that does not count after all). */
  rated: z.optional(z.boolean()),
  /** A rated match's pool. */
  pool: z.optional(z.nullable(ratingPoolSchema)),
  unrated: z.optional(z.nullable(unratedReasonSchema)),
  /** A rated match's end: each seat's change. */
  ratings: z.optional(z.nullable(z.array(seatRatingChangeSchema))),
});
export type MatchInfo = z.infer<typeof matchInfoSchema>;

export const matchListQuerySchema = z.strictObject({
  status: z.optional(matchStatusSchema),
  limit: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100)), 50),
});

/** POST /api/matches/:id/leave answers with the match's public info after the leave. */
export const leaveMatchResponseSchema = matchInfoSchema;

/** GET /api/decks: the decks a match can be created with (`deckId`): every built-in version, the default first, then the uploaded ones. */
export const deckListSchema = z.object({ decks: z.array(deckInfoSchema) });
export type DeckList = z.infer<typeof deckListSchema>;

export const matchListSchema = z.object({ matches: z.array(matchInfoSchema) });
export type MatchList = z.infer<typeof matchListSchema>;

/** Every code a lobby error may carry (the message is English detail for logs; clients show the code's text). */
export const lobbyErrorCodes = [
  'BAD_REQUEST',
  'BAD_JSON',
  'BAD_DECK',
  'UNKNOWN_DECK',
  'BAD_CREDENTIALS',
  'BAD_INVITE',
  'NOT_FOUND',
  // A handover code's refusals, each its own: it names no handover, it was used, it expired,
  // it had all its tries.
  'HANDOVER_UNKNOWN',
  'HANDOVER_USED',
  'HANDOVER_EXPIRED',
  'HANDOVER_TRIED_OUT',
  // Accounts: a name's refusals (`similarTo` names the name one is too close to), a passkey
  // not recognised (never saying whether a name exists), a ceremony whose challenge was used
  // or expired, a recovery code refused, passkeys over plain http, a signed-in request from
  // another origin, a request that needs a session without one.
  'NAME_TAKEN',
  'NAME_TOO_CLOSE',
  'NAME_NOT_ALLOWED',
  // A guest's typed name that is an account's, in any case or by a confusable spelling.
  'GUEST_NAME_TAKEN',
  // A guest's typed name that is, or looks like, a reserved word or a computer player's name.
  'GUEST_NAME_RESERVED',
  'PASSKEY_NOT_RECOGNISED',
  'CEREMONY_EXPIRED',
  'RECOVERY_CODE_REFUSED',
  'HTTPS_REQUIRED',
  'BAD_ORIGIN',
  'NOT_SIGNED_IN',
  // The last passkey of an account with no recovery code left cannot be removed.
  'LAST_PASSKEY',
  // A passkey code (a second device's passkey, from a code shown on a signed-in one): it names
  // no live account's code, it was used, it expired, it had all its tries.
  'PASSKEY_CODE_UNKNOWN',
  'PASSKEY_CODE_USED',
  'PASSKEY_CODE_EXPIRED',
  'PASSKEY_CODE_TRIED_OUT',
  // Rated play: refused against the computer (or for a match the server does not hold, such
  // as hot-seat), for a guest creating one, and a rated seat for a guest.
  'RATED_NOT_ALLOWED',
  'RATED_NEEDS_ACCOUNT',
  'RATED_SEAT_NEEDS_ACCOUNT',
  'MATCH_FULL',
  'NOT_FINISHED',
  'NOT_PLAYING',
  'OPPONENT_CONNECTED',
  'GRACE_NOT_OVER',
  'NOT_CLAIMABLE',
  'TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'METHOD_NOT_ALLOWED',
  'NOT_IMPLEMENTED',
  'RATE_LIMITED',
  'BOTS_BUSY',
  'TOO_MANY_CHALLENGES',
  'STORE_UNAVAILABLE',
  'SERVER_ERROR',
] as const;

/** Every lobby error, whatever the status code; `issues` names each bad field (a refused deck). */
export const errorResponseSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    issues: z.optional(z.array(z.object({ path: z.string(), message: z.string() }))),
    /** NAME_TOO_CLOSE: the existing name the one asked for looks like. */
    similarTo: z.optional(z.string()),
  }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

/** POST /api/matches/:id/rematch: a seat of a finished match offers (or accepts) a rematch. */
export const rematchRequestSchema = leaveMatchRequestSchema;
export type RematchRequest = z.input<typeof rematchRequestSchema>;

/** The offers so far; once both agreed, the new match and this seat's place in it. */
export const rematchResponseSchema = z.object({
  rematch: rematchStateSchema,
  seat: z.nullable(seatGrantSchema),
});
export type RematchResponse = z.infer<typeof rematchResponseSchema>;

/** POST /api/matches/:id/claim: a seat claims the win from an absent or timed-out opponent. */
export const claimWinRequestSchema = leaveMatchRequestSchema;
export type ClaimWinRequest = z.input<typeof claimWinRequestSchema>;

/** POST /api/decks answers with the stored deck (201, or 200 when it was already there). */
export const deckUploadResponseSchema = z.object({ deck: deckInfoSchema });
export type DeckUploadResponse = z.infer<typeof deckUploadResponseSchema>;

/** Largest deck file POST /api/decks accepts, in bytes. */
export const MAX_DECK_BYTES = 64 * 1024;

/**
 * An open challenge as the home page lists it: the free seat's side (the one a taker plays),
 * the creator, the rules, the clock (minutes per player, null for none), the days per turn
 * of correspondence play (null for live play) and since when it waits.
 */
const openChallengeSchema = z.object({
  matchID: matchIdSchema,
  side: sideSchema,
  creator: z.string(),
  /** The account holding the creator's seat (its profile: /@/<account>); null: a guest's. */
  creatorAccount: z.nullable(z.string()),
  variants: variantsSchema,
  deck: z.object({ name: z.string(), version: z.string() }),
  clockMinutes: z.nullable(z.number()),
  daysPerTurn: z.nullable(daysPerTurnSchema),
  /** A rated challenge: only a signed-in player may take it. */
  rated: z.optional(z.boolean()),
  createdAt: z.string(),
});
export type OpenChallenge = z.infer<typeof openChallengeSchema>;

/**
 * GET /api/challenges, and each `challenges` event of GET /api/challenges/stream (server-sent
 * events): every open challenge, newest first, and the server's time when the list was made
 * (the page counts waiting times from it, whatever its own clock says).
 */
export const challengeListSchema = z.object({
  challenges: z.array(openChallengeSchema),
  at: z.string(),
});
export type ChallengeList = z.infer<typeof challengeListSchema>;
