import { variantsSchema } from '@iron-curtain/game';
import { z } from 'zod';

export const matchIdSchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'not a match id');
export const seatSchema = z.enum(['0', '1']);
export const sideSchema = z.enum(['US', 'USSR']);
export const playerNameSchema = z
  .string()
  .trim()
  .min(1, 'enter a name')
  .max(24, 'at most 24 characters');
/** Secrets handed to one seat; at least 128 bits, base64url. */
export const credentialsSchema = z.string().min(22).max(128);

export const createMatchRequestSchema = z.strictObject({
  name: playerNameSchema,
  side: z.enum(['US', 'USSR', 'random']).default('random'),
  variants: variantsSchema.partial().default({}),
  visibility: z.enum(['public', 'private']).default('private'),
  /** A deck the server knows (see GET /api/decks); the default deck when absent. */
  deckId: z.string().max(64).optional(),
});
export type CreateMatchRequest = z.input<typeof createMatchRequestSchema>;

/** What a seat learns when it takes a seat: its credentials go to it alone. */
export const seatGrantSchema = z.object({
  matchID: matchIdSchema,
  seat: seatSchema,
  side: sideSchema,
  credentials: credentialsSchema,
});
export type SeatGrant = z.infer<typeof seatGrantSchema>;

export const createMatchResponseSchema = seatGrantSchema.extend({
  links: z.object({
    /** Path of the invite link (contains the invite token): takes the free seat. */
    invite: z.string(),
    /** Path of the spectator link: public view only. */
    spectate: z.string(),
  }),
});
export type CreateMatchResponse = z.infer<typeof createMatchResponseSchema>;

export const joinMatchRequestSchema = z.strictObject({
  name: playerNameSchema,
  invite: z.string().min(1).max(128),
});
export type JoinMatchRequest = z.input<typeof joinMatchRequestSchema>;

export const leaveMatchRequestSchema = z.strictObject({
  seat: seatSchema,
  credentials: credentialsSchema,
});
export type LeaveMatchRequest = z.input<typeof leaveMatchRequestSchema>;

export const matchStatusSchema = z.enum(['waiting', 'playing', 'finished']);

/** How a match ended; reason 'resigned' when a seat left a match in play. */
export const matchResultSchema = z.object({
  winner: seatSchema,
  winnerSide: sideSchema,
  reason: z.string(),
});

/** Public data about a match: safe for anyone holding its link. */
export const matchInfoSchema = z.object({
  matchID: matchIdSchema,
  status: matchStatusSchema,
  visibility: z.enum(['public', 'private']),
  players: z.array(
    z.object({
      seat: seatSchema,
      side: sideSchema,
      name: z.string().nullable(),
      connected: z.boolean(),
    }),
  ),
  spectators: z.number().int().nonnegative(),
  variants: variantsSchema,
  deck: z.object({
    id: z.string(),
    version: z.string(),
    name: z.string(),
    /** sha256 of the deck's canonical JSON: which exact deck the match was created with. */
    hash: z.string(),
    reconstructed: z.boolean(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
  result: matchResultSchema.nullable(),
});
export type MatchInfo = z.infer<typeof matchInfoSchema>;

export const matchListQuerySchema = z.strictObject({
  status: matchStatusSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

/** POST /api/matches/:id/leave answers with the match's public info after the leave. */
export const leaveMatchResponseSchema = matchInfoSchema;

export const deckInfoSchema = matchInfoSchema.shape.deck;
/** GET /api/decks: the decks a match can be created with (`deckId`). */
export const deckListSchema = z.object({ decks: z.array(deckInfoSchema) });
export type DeckList = z.infer<typeof deckListSchema>;

export const matchListSchema = z.object({ matches: z.array(matchInfoSchema) });
export type MatchList = z.infer<typeof matchListSchema>;

/** Every lobby error, whatever the status code. */
export const errorResponseSchema = z.object({
  error: z.object({ code: z.string(), message: z.string() }),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
