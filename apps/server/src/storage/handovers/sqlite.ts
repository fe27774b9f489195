import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { HandoverStore } from './handover-store.ts';
import { handoverTry } from './rows.ts';

export function sqliteHandoverStore(db: SqliteDatabase): HandoverStore {
  return {
    async putHandover(key, sealed, { expiresAt, now, forgetBefore }) {
      return await db.write(() => {
        db.run('DELETE FROM handovers WHERE expires_at <= ?', [forgetBefore]);
        db.run(`UPDATE handovers SET sealed = '' WHERE expires_at <= ? AND sealed <> ''`, [now]);
        const kept = db.run(
          'INSERT INTO handovers (key, sealed, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
          [key, sealed, expiresAt],
        );
        return kept.changes === 1;
      });
    },

    async tryHandover(key, maxTries) {
      // Read first: a code that names no handover (every wrong guess but a few) writes nothing.
      const found = db.one(
        'SELECT sealed, expires_at, used_at, tries FROM handovers WHERE key = ?',
        [key],
      );
      if (!found) return undefined;
      const counted = await db.write(() =>
        db.one(
          `UPDATE handovers SET tries = tries + 1 WHERE key = ? AND tries < ?
           RETURNING sealed, expires_at, used_at, tries`,
          [key, maxTries],
        ),
      );
      return handoverTry(counted ?? found, counted !== undefined);
    },

    async useHandover(key, now) {
      const used = await db.write(() =>
        db.run(`UPDATE handovers SET used_at = ?, sealed = '' WHERE key = ? AND used_at IS NULL`, [
          now,
          key,
        ]),
      );
      return used.changes === 1;
    },
  };
}
