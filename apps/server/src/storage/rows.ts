/// <reference path="../immer-cjs.d.ts" />
import type { LogEntry, MoveName, Seat, Side, Variants } from '@iron-curtain/game';
// The entry boardgame.io requires (see plain-moves.ts), so the bundle holds one immer.
import { freeze } from 'immer/dist/index.js';
import type {
  ChatRecord,
  ClockRecord,
  DaysPerTurn,
  DeckInfo,
  HandoverTry,
  MatchRecord,
  MatchResult,
  MatchStatus,
  MoveRecord,
  PushSubscriptionRecord,
  RematchState,
  SeatRecord,
  StoredDeck,
  Visibility,
} from './store.ts';

/** A row as both adapters read it: JSON columns arrive as text (SQLite) or parsed (Postgres `json` columns, which node-pg parses). */
type Row = Record<string, unknown>;

const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
const text = (value: unknown): string => String(value);
/** A boolean column: 0/1 in SQLite, a boolean in Postgres. */
const truthy = (value: unknown): boolean => value === true || Number(value) === 1;
const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(String(value)).toISOString();

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

/** A JSON column's value as both adapters write it: text, or SQL NULL for an absent value. */
export const jsonOrNull = (value: unknown): string | null =>
  value == null ? null : JSON.stringify(value);

/** The columns of a new match row, in the order of `matchRowValues`. */
export const MATCH_COLUMNS =
  'match_id, visibility, status, variants, deck, setup_data, seed, invite_hash, created_at, updated_at, result, clock, rematch, rematch_of, days_per_turn';

export function matchRowValues(match: MatchRecord): (string | number | null)[] {
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

export function deckFromRow(row: Row): StoredDeck {
  return {
    info: json<DeckInfo>(row.info),
    file: json<unknown>(row.file),
    createdAt: iso(row.created_at),
  };
}

export function chatFromRow(row: Row): ChatRecord {
  return {
    id: Number(row.id),
    matchID: text(row.match_id),
    room: text(row.room) as ChatRecord['room'],
    seat: row.seat == null ? null : (text(row.seat) as Seat),
    ...(row.phrase == null ? {} : { phrase: text(row.phrase) as ChatRecord['phrase'] }),
    ...(row.text == null ? {} : { text: text(row.text) }),
    at: iso(row.at),
  };
}

export function pushSubscriptionFromRow(row: Row): PushSubscriptionRecord {
  return {
    matchID: text(row.match_id),
    seat: text(row.seat) as Seat,
    endpoint: text(row.endpoint),
    p256dh: text(row.p256dh),
    auth: text(row.auth),
    language: text(row.language) as PushSubscriptionRecord['language'],
    createdAt: iso(row.created_at),
  };
}

/** A handover row as a try found it, `counted` or not. */
export function handoverTry(row: Row, counted: boolean): HandoverTry {
  return {
    sealed: text(row.sealed),
    expiresAt: iso(row.expires_at),
    usedAt: row.used_at == null ? null : iso(row.used_at),
    tries: Number(row.tries),
    counted,
  };
}
