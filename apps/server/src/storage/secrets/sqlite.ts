import type { Row } from '../database/columns.ts';
import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { SecretStore } from './secret-store.ts';

export function sqliteSecretStore(db: SqliteDatabase): SecretStore {
  return {
    async serverSecret(name, fresh) {
      await db.write(() =>
        db.run('INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)', [name, fresh]),
      );
      const row = db.one('SELECT value FROM server_secrets WHERE name = ?', [name]) as Row;
      return String(row.value);
    },
  };
}
