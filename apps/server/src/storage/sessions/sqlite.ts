import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { SESSION_COLUMNS, sessionValues } from './rows.ts';
import type { SessionRecord, SessionStore } from './session-store.ts';

/** Inserts a session inside a write (sign-up keeps it in the account's transaction). */
export function insertSqliteSession(db: SqliteDatabase, session: SessionRecord): void {
  db.run(
    `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?)`,
    sessionValues(session),
  );
}

export function sqliteSessionStore(db: SqliteDatabase): SessionStore {
  return {
    async createSession(session) {
      await db.write(() => insertSqliteSession(db, session));
    },

    async touchSession(sessionHash, now, idleBefore) {
      const found = db.one(
        `SELECT s.account_id, a.username FROM sessions s JOIN accounts a USING (account_id)
         WHERE s.session_hash = ? AND s.last_seen_at > ?
           AND a.disabled_at IS NULL AND a.deleted_at IS NULL`,
        [sessionHash, idleBefore],
      );
      if (!found) return undefined;
      await db.write(() =>
        db.run('UPDATE sessions SET last_seen_at = ? WHERE session_hash = ?', [now, sessionHash]),
      );
      return { accountID: String(found.account_id), username: String(found.username) };
    },

    async endSession(sessionHash) {
      const ended = await db.write(() =>
        db.run('DELETE FROM sessions WHERE session_hash = ?', [sessionHash]),
      );
      return ended.changes === 1;
    },

    async endAccountSessions(accountID) {
      const ended = await db.write(() =>
        db.run('DELETE FROM sessions WHERE account_id = ?', [accountID]),
      );
      return Number(ended.changes);
    },
  };
}
