import type { Seat } from '@iron-curtain/game';
import type { RatingPool, SeatRatingChange } from '@iron-curtain/protocol';
import type { Rating } from '../../ratings/glicko2.ts';

export type { RatingPool, SeatRatingChange };

/** An account's rating in one pool, as its last rated match left it. */
export interface StoredRating extends Rating {
  accountID: string;
  pool: RatingPool;
  /** Rated matches counted in this pool. */
  games: number;
  /** ISO time of the last change. */
  updatedAt: string;
}

/** One rated match's change to an account's rating: `games` counts it (1 for the first). */
export interface RatingChange {
  accountID: string;
  pool: RatingPool;
  matchID: string;
  games: number;
  before: number;
  after: number;
  deviationAfter: number;
  at: string;
}

/** A rated match that ended with a winner, as its finish transaction rates it. */
export interface RatedEnd {
  matchID: string;
  pool: RatingPool;
  /** The account holding seat 0, and seat 1: two different accounts. */
  accounts: readonly [string, string];
  winner: Seat;
  at: string;
}

/**
 * Each account's Glicko-2 rating per pool and its history. Ratings change only in the
 * transaction that stores a rated match's result (see MatchStore.finishMatch and commitMove):
 * the rows of both accounts are locked there, so two matches of one player ending at once
 * are counted one after the other, each once (the history's key is the games count).
 */
export interface RatingStore {
  /** The account's rating in the pool; undefined before its first rated match there. */
  ratingOf(accountID: string, pool: RatingPool): Promise<StoredRating | undefined>;
  /** The account's changes in the pool, oldest first. */
  historyOf(accountID: string, pool: RatingPool): Promise<RatingChange[]>;
}
