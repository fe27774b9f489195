import { NEW_PLAYER, provisional, type Rating, ratedAfter } from '../../ratings/glicko2.ts';
import type { RatedEnd, RatingChange, SeatRatingChange, StoredRating } from './rating-store.ts';

/** What rating a match did, to store: each account's new rating, its history row, each seat's change. */
export interface RatedMatch {
  ratings: [StoredRating, StoredRating];
  history: [RatingChange, RatingChange];
  seats: SeatRatingChange[];
}

/**
 * Rates both seats of a match that ended with a winner, each against the other's rating from
 * before it (a player without one starts at NEW_PLAYER). `stored` are the accounts' ratings
 * as locked in the finishing transaction, in seat order.
 */
export function rateMatch(
  end: RatedEnd,
  stored: readonly [StoredRating | undefined, StoredRating | undefined],
): RatedMatch {
  const before = stored.map((s): Rating => s ?? NEW_PLAYER) as [Rating, Rating];
  const rated = ([0, 1] as const).map((i) => {
    const self = before[i];
    const opponent = before[1 - i] as Rating;
    const score = String(i) === end.winner ? 1 : 0;
    const after = ratedAfter(self, [{ opponent, score }]);
    const accountID = end.accounts[i];
    const games = (stored[i]?.games ?? 0) + 1;
    const rating: StoredRating = { ...after, accountID, pool: end.pool, games, updatedAt: end.at };
    const change: RatingChange = {
      accountID,
      pool: end.pool,
      matchID: end.matchID,
      games,
      before: self.rating,
      after: after.rating,
      deviationAfter: after.deviation,
      at: end.at,
    };
    const seat: SeatRatingChange = {
      seat: i === 0 ? '0' : '1',
      before: Math.round(self.rating),
      after: Math.round(after.rating),
      change: Math.round(after.rating) - Math.round(self.rating),
      provisional: provisional(after),
    };
    return { rating, change, seat };
  });
  const [a, b] = rated as [(typeof rated)[0], (typeof rated)[0]];
  return {
    ratings: [a.rating, b.rating],
    history: [a.change, b.change],
    seats: [a.seat, b.seat],
  };
}
