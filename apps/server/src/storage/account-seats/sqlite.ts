import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { AccountSeatStore } from './account-seat-store.ts';
import { accountSeat } from './rows.ts';

export function sqliteAccountSeatStore(db: SqliteDatabase): AccountSeatStore {
  return {
    async addSeats(accountID, seats) {
      await db.write(() =>
        db.transaction(() => {
          for (const s of seats) {
            db.run(
              `INSERT INTO account_seats (account_id, match_id, seat, credentials, joined_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
              [accountID, s.matchID, s.seat, s.credentials, s.joinedAt],
            );
          }
        }),
      );
    },

    async seatsOf(accountID) {
      return db
        .all(
          `SELECT match_id, seat, credentials, joined_at FROM account_seats WHERE account_id = ?
           ORDER BY joined_at DESC, match_id, seat`,
          [accountID],
        )
        .map(accountSeat);
    },
  };
}
