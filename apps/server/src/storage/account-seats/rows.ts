import type { Side } from '@iron-curtain/game';
import { iso, json, type Row, text } from '../database/columns.ts';
import type { MatchResult, MatchStatus } from '../matches/match-store.ts';
import type {
  AccountSeat,
  GamesWhich,
  HeldGame,
  SeatHolder,
  SideTally,
} from './account-seat-store.ts';

export const accountSeat = (row: Row): AccountSeat => ({
  matchID: text(row.match_id),
  seat: text(row.seat),
  credentials: text(row.credentials),
  joinedAt: iso(row.joined_at),
});

export const sideTally = (row: Row): SideTally => ({
  side: text(row.side) as Side,
  played: Number(row.played),
  won: Number(row.won),
});

export const heldGame = (row: Row): HeldGame => ({
  matchID: text(row.match_id),
  side: text(row.side) as Side,
  status: text(row.status) as MatchStatus,
  result: row.result == null ? null : json<MatchResult>(row.result),
  createdAt: iso(row.created_at),
  updatedAt: iso(row.updated_at),
  opponent: row.opponent == null ? null : text(row.opponent),
  opponentAccount: row.opponent_account == null ? null : text(row.opponent_account),
});

export const seatHolder = (row: Row): SeatHolder => ({
  matchID: text(row.match_id),
  seat: text(row.seat),
  username: text(row.username),
});

/** The statuses each kind of game list takes. */
export const STATUSES_OF: Record<GamesWhich, readonly MatchStatus[]> = {
  current: ['waiting', 'playing'],
  finished: ['finished'],
};

/**
 * An account's games (its seats joined to their matches), with the other seat's name and
 * account; `$account`, `$statuses`, `$limit`, `$offset` and `$S` (the schema) are the
 * backend's. The account's seat is found by its primary key's first column, each match and
 * seat by theirs, the other seat's account by account_seats_match: no scan grows with the
 * store, only with the account's own games.
 */
export const gamesQuery = (q: {
  S: string;
  account: string;
  statuses: string;
  limit: string;
  offset: string;
}) => `
  SELECT m.match_id, s.side, m.status, m.result, m.created_at, m.updated_at, o.name AS opponent,
    (SELECT ac.username FROM ${q.S}account_seats oa JOIN ${q.S}accounts ac ON ac.account_id = oa.account_id
     WHERE oa.match_id = m.match_id AND oa.seat = o.seat AND ac.deleted_at IS NULL
     ORDER BY oa.joined_at LIMIT 1) AS opponent_account
  FROM ${q.S}account_seats a
  JOIN ${q.S}matches m ON m.match_id = a.match_id
  JOIN ${q.S}seats s ON s.match_id = a.match_id AND s.seat = a.seat
  LEFT JOIN ${q.S}seats o ON o.match_id = a.match_id AND o.seat <> a.seat
  WHERE a.account_id = ${q.account} AND m.visibility <> 'private' AND m.status IN (${q.statuses})
  ORDER BY m.updated_at DESC, m.match_id
  LIMIT ${q.limit} OFFSET ${q.offset}`;
