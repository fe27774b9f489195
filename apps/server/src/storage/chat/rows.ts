import type { Seat } from '@iron-curtain/game';
import { iso, type Row, text } from '../database/columns.ts';
import type { ChatRecord } from './chat-store.ts';

/** A chat line as both backends read its row. */
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
