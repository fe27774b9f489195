import type { DeckInfo } from '@iron-curtain/protocol';
import { iso, json, type Row } from '../database/columns.ts';
import type { StoredDeck } from './deck-store.ts';

/** A deck as both backends read its row. */
export function deckFromRow(row: Row): StoredDeck {
  return {
    info: json<DeckInfo>(row.info),
    file: json<unknown>(row.file),
    createdAt: iso(row.created_at),
  };
}
