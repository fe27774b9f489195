import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { AccountSeatStore } from './account-seat-store.ts';
import { accountSeat, gamesQuery, heldGame, STATUSES_OF, seatHolder, sideTally } from './rows.ts';

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

    async tallyOf(accountID) {
      const { rows } = await pool.query(
        `SELECT s.side, count(*) AS played,
           count(*) FILTER (WHERE m.result->>'winner' = a.seat) AS won
         FROM ${S}.account_seats a
         JOIN ${S}.matches m ON m.match_id = a.match_id
         JOIN ${S}.seats s ON s.match_id = a.match_id AND s.seat = a.seat
         WHERE a.account_id = $1 AND m.status = 'finished' AND m.result IS NOT NULL
         GROUP BY s.side`,
        [accountID],
      );
      return (rows as Row[]).map(sideTally);
    },

    async gamesOf(accountID, which, limit, offset) {
      const { rows } = await pool.query(
        gamesQuery({
          S: `${S}.`,
          account: '$1',
          statuses: 'SELECT unnest($2::text[])',
          limit: '$3',
          offset: '$4',
        }),
        [accountID, STATUSES_OF[which], limit, offset],
      );
      return (rows as Row[]).map(heldGame);
    },

    async holdersOf(matchIDs) {
      if (matchIDs.length === 0) return [];
      const { rows } = await pool.query(
        `SELECT a.match_id, a.seat, ac.username FROM ${S}.account_seats a
         JOIN ${S}.accounts ac ON ac.account_id = a.account_id
         WHERE a.match_id = ANY($1::text[]) AND ac.deleted_at IS NULL
         ORDER BY a.joined_at, a.account_id`,
        [matchIDs],
      );
      return (rows as Row[]).map(seatHolder);
    },
  };
}
