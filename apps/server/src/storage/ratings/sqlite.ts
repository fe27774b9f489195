import type { SqliteDatabase } from '../database/sqlite-database.ts';
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
 * Rates a match inside the transaction that stores its result: one process owns the file and
 * its transactions run one at a time, so what is read here is what is written over.
 */
export function sqliteRateMatch(db: SqliteDatabase, end: RatedEnd): SeatRatingChange[] {
  const stored = end.accounts.map((id) => {
    const row = db.one('SELECT * FROM ratings WHERE account_id = ? AND pool = ?', [id, end.pool]);
    return row && storedRating(row);
  }) as [StoredRating | undefined, StoredRating | undefined];
  const rated = rateMatch(end, stored);
  for (const rating of rated.ratings) {
    db.run(
      `INSERT INTO ratings (${RATING_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (account_id, pool) DO UPDATE SET rating = excluded.rating,
         deviation = excluded.deviation, volatility = excluded.volatility,
         games = excluded.games, updated_at = excluded.updated_at`,
      ratingValues(rating),
    );
  }
  for (const change of rated.history) {
    db.run(
      `INSERT INTO rating_history (${HISTORY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      historyValues(change),
    );
  }
  return rated.seats;
}

export function sqliteRatingStore(db: SqliteDatabase): RatingStore {
  return {
    async ratingOf(accountID, pool) {
      const row = db.one('SELECT * FROM ratings WHERE account_id = ? AND pool = ?', [
        accountID,
        pool,
      ]);
      return row && storedRating(row);
    },

    async historyOf(accountID, pool) {
      return db
        .all('SELECT * FROM rating_history WHERE account_id = ? AND pool = ? ORDER BY games', [
          accountID,
          pool,
        ])
        .map(ratingChange);
    },
  };
}
