import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { AccountSeatStore } from './account-seat-store.ts';
import { accountSeat } from './rows.ts';

export function postgresAccountSeatStore({ pool, S }: PostgresDatabase): AccountSeatStore {
  return {
    async addSeats(accountID, seats) {
      if (seats.length === 0) return;
      await pool.query(
        `INSERT INTO ${S}.account_seats (account_id, match_id, seat, credentials, joined_at)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[])
         ON CONFLICT DO NOTHING`,
        [
          accountID,
          seats.map((s) => s.matchID),
          seats.map((s) => s.seat),
          seats.map((s) => s.credentials),
          seats.map((s) => s.joinedAt),
        ],
      );
    },

    async seatsOf(accountID) {
      const { rows } = await pool.query(
        `SELECT match_id, seat, credentials, joined_at FROM ${S}.account_seats
         WHERE account_id = $1 ORDER BY joined_at DESC, match_id, seat`,
        [accountID],
      );
      return (rows as Row[]).map(accountSeat);
    },
  };
}
