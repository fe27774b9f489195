import { iso, type Row, text } from '../database/columns.ts';
import type { AccountSeat } from './account-seat-store.ts';

export const accountSeat = (row: Row): AccountSeat => ({
  matchID: text(row.match_id),
  seat: text(row.seat),
  credentials: text(row.credentials),
  joinedAt: iso(row.joined_at),
});
