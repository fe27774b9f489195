import { type Row, text, truthy } from '../database/columns.ts';
import type { RatedEnd, RatingPool } from '../ratings/rating-store.ts';
import type { MatchResult, UnratedReason } from './match-store.ts';

/**
 * What a match's end does to ratings, from its row (`rated`, `pool`, `unrated`) and its seats'
 * accounts, read in the transaction that finishes it: nothing (unrated, or found not to
 * count), a reason it does not count after all, or the match to rate.
 */
export function ratingAtEnd(
  match: Row,
  accounts: readonly (string | null)[],
  result: MatchResult | null,
  at: string,
): { unrated: UnratedReason } | { rate: RatedEnd } | null {
  if (!truthy(match.rated) || match.unrated != null) return null;
  // Ended before each seat played a card (or before anyone joined): no winner, no rating.
  if (result === null) return { unrated: 'aborted' };
  const [first, second] = accounts;
  if (!first || !second) return null;
  if (first === second) return { unrated: 'same-account' };
  return {
    rate: {
      matchID: text(match.match_id),
      pool: text(match.pool) as RatingPool,
      accounts: [first, second],
      winner: result.winner,
      at,
    },
  };
}
