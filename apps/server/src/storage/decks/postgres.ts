import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { DeckStore } from './deck-store.ts';
import { deckFromRow } from './rows.ts';

export function postgresDeckStore({ pool, S }: PostgresDatabase): DeckStore {
  return {
    async saveDeck(deck) {
      const { rowCount } = await pool.query(
        `INSERT INTO ${S}.decks (hash, info, file, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (hash) DO NOTHING`,
        [deck.info.hash, JSON.stringify(deck.info), JSON.stringify(deck.file), deck.createdAt],
      );
      return rowCount === 1;
    },

    async getDeck(hash) {
      const { rows } = await pool.query(`SELECT * FROM ${S}.decks WHERE hash = $1`, [hash]);
      return rows[0] ? deckFromRow(rows[0]) : undefined;
    },

    async listDecks() {
      const { rows } = await pool.query(`SELECT * FROM ${S}.decks ORDER BY created_at, hash`);
      return rows.map(deckFromRow);
    },
  };
}
