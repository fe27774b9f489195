import type pg from 'pg';
import { NEW_PLAYER } from '../../ratings/glicko2.ts';
import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import { rateMatch } from './rate-match.ts';
import type { RatedEnd, RatingStore, SeatRatingChange, StoredRating } from './rating-store.ts';
import {
  HISTORY_COLUMNS,
  historyValues,
  RATING_COLUMNS,
  ratingChange,
  ratingValues,
  storedRating,
} from './rows.ts';

/**
 * Rates a match inside the transaction that stores its result (on `c`): both accounts' rows
 * locked (FOR UPDATE, in account order so two finishing matches never wait on each other in
 * a cycle), rated from what they hold once locked, written back with their history rows. A
 * match of the same player finishing elsewhere waits for this commit and then rates from it.
 */
export async function postgresRateMatch(
  c: pg.PoolClient,
  S: string,
  end: RatedEnd,
): Promise<SeatRatingChange[]> {
  const accounts = [...end.accounts].sort();
  // A first rated match has no row to lock: one is made (and rolled back with a failure), so
  // two first matches of one player lock the same row too.
  for (const accountID of accounts) {
    await c.query(
      `INSERT INTO ${S}.ratings (${RATING_COLUMNS}) VALUES ($1, $2, $3, $4, $5, 0, $6)
       ON CONFLICT DO NOTHING`,
      [accountID, end.pool, NEW_PLAYER.rating, NEW_PLAYER.deviation, NEW_PLAYER.volatility, end.at],
    );
  }
  const { rows } = await c.query(
    `SELECT * FROM ${S}.ratings WHERE account_id = ANY($1) AND pool = $2
     ORDER BY account_id FOR UPDATE`,
    [accounts, end.pool],
  );
  const locked = (rows as Row[]).map(storedRating);
  const stored = end.accounts.map((id) => {
    const row = locked.find((r) => r.accountID === id);
    return row && row.games > 0 ? row : undefined;
  }) as [StoredRating | undefined, StoredRating | undefined];
  const rated = rateMatch(end, stored);
  for (const rating of rated.ratings) {
    await c.query(
      `UPDATE ${S}.ratings SET rating = $3, deviation = $4, volatility = $5, games = $6,
         updated_at = $7
       WHERE account_id = $1 AND pool = $2`,
      ratingValues(rating),
    );
  }
  for (const change of rated.history) {
    await c.query(
      `INSERT INTO ${S}.rating_history (${HISTORY_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      historyValues(change),
    );
  }
  return rated.seats;
}

export function postgresRatingStore({ pool, S }: PostgresDatabase): RatingStore {
  return {
    async ratingOf(accountID, ratingPool) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.ratings WHERE account_id = $1 AND pool = $2 AND games > 0`,
        [accountID, ratingPool],
      );
      const row = rows[0] as Row | undefined;
      return row && storedRating(row);
    },

    async historyOf(accountID, ratingPool) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.rating_history WHERE account_id = $1 AND pool = $2 ORDER BY games`,
        [accountID, ratingPool],
      );
      return (rows as Row[]).map(ratingChange);
    },
  };
}
