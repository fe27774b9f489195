import type { LogEntry } from '@iron-curtain/game';
import { z } from 'zod/mini';
import {
  clockStateSchema,
  credentialsSchema,
  deckInfoSchema,
  matchIdSchema,
  matchResultSchema,
  matchStatusSchema,
  seatGrantSchema,
  seatSchema,
  sideSchema,
} from './lobby.ts';

/** Most seats one My games request may ask about. */
export const MAX_MY_GAMES = 200;

/** A seat this browser holds: the match, the seat and its credentials, as the lobby granted them. */
export const heldSeatSchema = z.strictObject({
  matchID: matchIdSchema,
  seat: seatSchema,
  credentials: credentialsSchema,
});
export type HeldSeat = z.infer<typeof heldSeatSchema>;

/**
 * POST /api/my-games: the seats this browser holds. A POST, so that the credentials travel in
 * the body and never in a URL that logs or a history keep.
 */
export const myGamesRequestSchema = z.strictObject({
  seats: z
    .array(heldSeatSchema)
    .check(z.maxLength(MAX_MY_GAMES, `at most ${MAX_MY_GAMES} matches in one request`)),
});
export type MyGamesRequest = z.input<typeof myGamesRequestSchema>;

/** The last accepted move: who made it, when, and its public log entries (the first is the move itself). */
const lastMoveSchema = z.object({
  seat: seatSchema,
  side: sideSchema,
  entries: z.array(z.custom<LogEntry>()),
  at: z.string(),
});

/** One match as the seat holding it sees it in My games; public information only. */
const myGameSchema = z.object({
  matchID: matchIdSchema,
  seat: seatSchema,
  side: sideSchema,
  status: matchStatusSchema,
  /** The other seat's player: null until someone takes it. */
  opponent: z.object({ name: z.nullable(z.string()), side: sideSchema }),
  /** Whose decision it is while the match is in play; null while it waits and after it ended. */
  turn: z.nullable(z.enum(['you', 'opponent'])),
  result: z.nullable(matchResultSchema),
  clock: z.nullable(clockStateSchema),
  /** When the seat to move runs out of time without a clock (correspondence play); null: no deadline. */
  deadline: z.nullable(z.string()),
  lastMove: z.nullable(lastMoveSchema),
  deck: deckInfoSchema,
  updatedAt: z.string(),
});
export type MyGame = z.infer<typeof myGameSchema>;

/** A seat the server could not vouch for: the match is gone, or the credentials do not hold the seat. */
const myGameRefusedSchema = z.object({
  matchID: matchIdSchema,
  seat: seatSchema,
  error: z.object({ code: z.enum(['NOT_FOUND', 'BAD_CREDENTIALS']), message: z.string() }),
});
export type MyGameRefused = z.infer<typeof myGameRefusedSchema>;

/**
 * The answer: one entry per seat asked about, in the request's order, a seat named again with
 * the same credentials answered once; and the server's time.
 */
export const myGamesResponseSchema = z.object({
  games: z.array(z.union([myGameSchema, myGameRefusedSchema])),
  at: z.string(),
});
export type MyGamesResponse = z.infer<typeof myGamesResponseSchema>;

/** How long a handover code can be redeemed, in ms. */
export const HANDOVER_TTL_MS = 10 * 60 * 1000;

/** POST /api/handovers: hand the seats this browser holds to another browser. */
export const handoverRequestSchema = myGamesRequestSchema;
export type HandoverRequest = MyGamesRequest;

/**
 * The one-time code (letters and digits, read aloud or typed; dashes and case do not matter),
 * until when it can be redeemed, and how many seats it carries (those whose credentials held).
 */
export const handoverSchema = z.object({
  code: z.string(),
  expiresAt: z.string(),
  seats: z.int().check(z.nonnegative()),
});
export type Handover = z.infer<typeof handoverSchema>;

/** POST /api/handovers/redeem: the code, typed or from the link's fragment (never a URL's path or query). */
export const handoverRedeemRequestSchema = z.strictObject({
  code: z.string().check(z.minLength(1), z.maxLength(32)),
});

/** The seats handed over, each with its credentials and the name it plays under. */
export const handoverSeatsSchema = z.object({
  seats: z.array(z.extend(seatGrantSchema, { name: z.string() })),
});
export type HandoverSeats = z.infer<typeof handoverSeatsSchema>;
