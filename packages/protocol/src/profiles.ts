import { z } from 'zod/mini';
import { matchIdSchema, matchResultSchema, matchStatusSchema, sideSchema } from './lobby.ts';

/** Finished games a profile lists on one page, the latest first. */
export const PROFILE_PAGE_SIZE = 20;

/** A player's profile page: `/@/<username>`. */
export const profilePath = (username: string): string => `/@/${encodeURIComponent(username)}`;

/** GET /api/profiles/:username?page=N: which page of finished games (1, the latest, by default). */
export const profileQuerySchema = z.strictObject({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1),
});

/** A side's results: finished games with a winner, won and lost. */
const sideResultsSchema = z.object({
  played: z.int().check(z.nonnegative()),
  won: z.int().check(z.nonnegative()),
  lost: z.int().check(z.nonnegative()),
});
export type SideResults = z.infer<typeof sideResultsSchema>;

/** One of a profile's games, as anyone may see it. */
export const profileGameSchema = z.object({
  matchID: matchIdSchema,
  side: sideSchema,
  /** The opponent's name at the table (a deleted account's finished games: "deleted player"). */
  opponent: z.nullable(z.string()),
  /** The opponent's account, when an account holds the other seat: its profile's name. */
  opponentAccount: z.nullable(z.string()),
  status: matchStatusSchema,
  result: z.nullable(matchResultSchema),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ProfileGame = z.infer<typeof profileGameSchema>;

/**
 * A profile: the name, member since, results by side, the games in play (to watch) and a page
 * of finished games (to replay). Nothing about devices or addresses; private matches are
 * counted in the results but never listed, as their links are their owners' to share.
 */
export const profileSchema = z.object({
  username: z.string(),
  memberSince: z.string(),
  results: z.object({ US: sideResultsSchema, USSR: sideResultsSchema }),
  current: z.array(profileGameSchema),
  finished: z.array(profileGameSchema),
  page: z.int().check(z.positive()),
  /** Whether an older page of finished games follows. */
  more: z.boolean(),
});
export type Profile = z.infer<typeof profileSchema>;
