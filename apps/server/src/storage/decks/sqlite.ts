import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { DeckStore } from './deck-store.ts';
import { deckFromRow } from './rows.ts';

export function sqliteDeckStore(db: SqliteDatabase): DeckStore {
  return {
    saveDeck(deck) {
      return db.write(
        () =>
          db.run('INSERT OR IGNORE INTO decks (hash, info, file, created_at) VALUES (?, ?, ?, ?)', [
            deck.info.hash,
            JSON.stringify(deck.info),
            JSON.stringify(deck.file),
            deck.createdAt,
          ]).changes === 1,
      );
    },

    async getDeck(hash) {
      const row = db.one('SELECT * FROM decks WHERE hash = ?', [hash]);
      return row ? deckFromRow(row) : undefined;
    },

    async listDecks() {
      return db.all('SELECT * FROM decks ORDER BY created_at, hash').map(deckFromRow);
    },
  };
}
