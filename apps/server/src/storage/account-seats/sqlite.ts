import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { AccountSeatStore } from './account-seat-store.ts';
import { accountSeat, gamesQuery, heldGame, STATUSES_OF, seatHolder, sideTally } from './rows.ts';

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

    async tallyOf(accountID) {
      return db
        .all(
          `SELECT s.side, count(*) AS played,
             sum(CASE WHEN json_extract(m.result, '$.winner') = a.seat THEN 1 ELSE 0 END) AS won
           FROM account_seats a
           JOIN matches m ON m.match_id = a.match_id
           JOIN seats s ON s.match_id = a.match_id AND s.seat = a.seat
           WHERE a.account_id = ? AND m.status = 'finished' AND m.result IS NOT NULL
           GROUP BY s.side`,
          [accountID],
        )
        .map(sideTally);
    },

    async gamesOf(accountID, which, limit, offset) {
      const statuses = STATUSES_OF[which];
      return db
        .all(
          gamesQuery({
            S: '',
            account: '?',
            statuses: statuses.map(() => '?').join(', '),
            limit: '?',
            offset: '?',
          }),
          [accountID, ...statuses, limit, offset],
        )
        .map(heldGame);
    },

    async holdersOf(matchIDs) {
      if (matchIDs.length === 0) return [];
      return db
        .all(
          `SELECT a.match_id, a.seat, ac.username FROM account_seats a
           JOIN accounts ac ON ac.account_id = a.account_id
           WHERE a.match_id IN (${matchIDs.map(() => '?').join(', ')}) AND ac.deleted_at IS NULL
           ORDER BY a.joined_at, a.account_id`,
          [...matchIDs],
        )
        .map(seatHolder);
    },
  };
}
