/// <reference path="../../immer-cjs.d.ts" />
import type { LogEntry, MoveName, Seat, Side, Variants } from '@iron-curtain/game';
// The entry boardgame.io requires (see reducer/plain-moves.ts), so the bundle holds one immer.
import { freeze } from 'immer/dist/index.js';
import { iso, json, jsonOrNull, type Row, text, truthy } from '../database/columns.ts';
import type {
  ClockRecord,
  DaysPerTurn,
  DeckInfo,
  MatchRecord,
  MatchResult,
  MatchStatus,
  MoveRecord,
  RatingPool,
  RematchState,
  SeatRatingChange,
  SeatRecord,
  StoredState,
  UnratedReason,
  Visibility,
} from './match-store.ts';
import { progressColumn } from './progress.ts';

/** How many distinct shared values `sharedJson` keeps (an uploaded deck's setup is a few kB). */
const SHARED_VALUES = 256;
const sharedValues = new Map<string, unknown>();

/**
 * A JSON column most matches share the text of (their deck, variants and setup), parsed once
 * and shared by every record that holds it, frozen: a server remembering thousands of records
 * held a copy in each.
 */
function sharedJson<T>(value: unknown): T {
  const key = typeof value === 'string' ? value : JSON.stringify(value);
  let shared = sharedValues.get(key);
  if (shared === undefined) {
    shared = freeze(json<unknown>(value), true);
    sharedValues.set(key, shared);
    if (sharedValues.size > SHARED_VALUES) {
      sharedValues.delete(sharedValues.keys().next().value as string);
    }
  }
  return shared as T;
}

/** The columns of a new match row, in the order of `matchRowValues`. */
export const MATCH_COLUMNS =
  'match_id, visibility, status, variants, deck, setup_data, seed, invite_hash, created_at, updated_at, result, clock, rematch, rematch_of, days_per_turn, progress, rated, pool, unrated';

/** A new match's row: its record, and its progress at its initial state. */
export function matchRowValues(
  match: MatchRecord,
  initial: StoredState,
): (string | number | null)[] {
  return [
    match.matchID,
    match.visibility,
    match.status,
    JSON.stringify(match.variants),
    JSON.stringify(match.deck),
    JSON.stringify(match.setupData),
    match.seed,
    match.inviteHash,
    match.createdAt,
    match.updatedAt,
    jsonOrNull(match.result),
    jsonOrNull(match.clock),
    jsonOrNull(match.rematch),
    match.rematchOf ?? null,
    match.daysPerTurn ?? null,
    progressColumn(initial, null),
    match.rated ? 1 : 0,
    match.pool ?? null,
    match.unrated ?? null,
  ];
}

function seatFromRow(row: Row): SeatRecord {
  return {
    seat: text(row.seat) as Seat,
    side: text(row.side) as Side,
    name: row.name === null ? null : text(row.name),
    credentialsHash: row.credentials_hash === null ? null : text(row.credentials_hash),
    // Absent rather than null: records read back as they were written.
    ...(row.away_since == null ? {} : { awaySince: iso(row.away_since) }),
    ...(truthy(row.muting_opponent) ? { mutingOpponent: true } : {}),
    ...(row.account_id == null ? {} : { accountID: text(row.account_id) }),
  };
}

export function matchFromRows(row: Row, seats: Row[]): MatchRecord {
  const players = seats.map(seatFromRow).sort((a, b) => a.seat.localeCompare(b.seat));
  if (players.length !== 2)
    throw new Error(`match ${text(row.match_id)} has ${players.length} seats`);
  return {
    matchID: text(row.match_id),
    visibility: text(row.visibility) as Visibility,
    status: text(row.status) as MatchStatus,
    variants: sharedJson<Variants>(row.variants),
    deck: sharedJson<DeckInfo>(row.deck),
    setupData: sharedJson<unknown>(row.setup_data),
    seed: text(row.seed),
    inviteHash: text(row.invite_hash),
    players: players as [SeatRecord, SeatRecord],
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
    result: row.result === null ? null : json<MatchResult>(row.result),
    ...(row.clock == null ? {} : { clock: json<ClockRecord>(row.clock) }),
    ...(row.rematch == null ? {} : { rematch: json<RematchState>(row.rematch) }),
    ...(row.rematch_of == null ? {} : { rematchOf: text(row.rematch_of) }),
    ...(truthy(row.chat_off) ? { chatOff: true } : {}),
    ...(row.days_per_turn == null ? {} : { daysPerTurn: Number(row.days_per_turn) as DaysPerTurn }),
    ...(truthy(row.rated) ? { rated: true, pool: text(row.pool) as RatingPool } : {}),
    ...(row.unrated == null ? {} : { unrated: text(row.unrated) as UnratedReason }),
    ...(row.ratings == null ? {} : { ratings: json<SeatRatingChange[]>(row.ratings) }),
  };
}

export function moveFromRow(row: Row): MoveRecord {
  return {
    stateID: Number(row.state_id),
    seat: text(row.seat) as Seat,
    move: text(row.move) as MoveName,
    args: json<unknown[]>(row.args),
    entries: json<LogEntry[]>(row.entries),
    at: iso(row.at),
  };
}
