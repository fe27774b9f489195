import { iso, type Row, text } from '../database/columns.ts';
import type { RatingChange, RatingPool, StoredRating } from './rating-store.ts';

export const storedRating = (row: Row): StoredRating => ({
  accountID: text(row.account_id),
  pool: text(row.pool) as RatingPool,
  rating: Number(row.rating),
  deviation: Number(row.deviation),
  volatility: Number(row.volatility),
  games: Number(row.games),
  updatedAt: iso(row.updated_at),
});

export const ratingChange = (row: Row): RatingChange => ({
  accountID: text(row.account_id),
  pool: text(row.pool) as RatingPool,
  matchID: text(row.match_id),
  games: Number(row.games),
  before: Number(row.rating_before),
  after: Number(row.rating_after),
  deviationAfter: Number(row.deviation_after),
  at: iso(row.at),
});

/** A rating row's values, in the order of RATING_COLUMNS. */
export const RATING_COLUMNS = 'account_id, pool, rating, deviation, volatility, games, updated_at';
export const ratingValues = (r: StoredRating) => [
  r.accountID,
  r.pool,
  r.rating,
  r.deviation,
  r.volatility,
  r.games,
  r.updatedAt,
];

/** A history row's values, in the order of HISTORY_COLUMNS. */
export const HISTORY_COLUMNS =
  'account_id, pool, match_id, games, rating_before, rating_after, deviation_after, at';
export const historyValues = (c: RatingChange) => [
  c.accountID,
  c.pool,
  c.matchID,
  c.games,
  c.before,
  c.after,
  c.deviationAfter,
  c.at,
];
