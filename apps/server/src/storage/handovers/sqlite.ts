import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { HandoverStore } from './handover-store.ts';

export function sqliteHandoverStore(db: SqliteDatabase): HandoverStore {
  return {
    async putHandover(key, sealed, expiresAt, now) {
      await db.write(() => {
        db.run('DELETE FROM handovers WHERE expires_at <= ?', [now]);
        db.run('INSERT INTO handovers (key, sealed, expires_at) VALUES (?, ?, ?)', [
          key,
          sealed,
          expiresAt,
        ]);
      });
    },

    async takeHandover(key, now) {
      const row = await db.write(() =>
        db.one('DELETE FROM handovers WHERE key = ? RETURNING sealed, expires_at', [key]),
      );
      return row && String(row.expires_at) > now ? String(row.sealed) : undefined;
    },
  };
}
