import type pg from 'pg';
import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import { SESSION_COLUMNS, sessionValues } from './rows.ts';
import type { SessionRecord, SessionStore } from './session-store.ts';

/** Inserts a session on `client` (sign-up keeps it in the account's transaction). */
export async function insertPostgresSession(
  client: pg.Pool | pg.PoolClient,
  S: string,
  session: SessionRecord,
): Promise<void> {
  await client.query(
    `INSERT INTO ${S}.sessions (${SESSION_COLUMNS}) VALUES ($1, $2, $3, $4, $5)`,
    sessionValues(session),
  );
}

export function postgresSessionStore({ pool, S }: PostgresDatabase): SessionStore {
  return {
    createSession: (session) => insertPostgresSession(pool, S, session),

    async touchSession(sessionHash, now, idleBefore) {
      const { rows } = await pool.query(
        `UPDATE ${S}.sessions s SET last_seen_at = $2 FROM ${S}.accounts a
         WHERE s.session_hash = $1 AND s.last_seen_at > $3 AND a.account_id = s.account_id
           AND a.disabled_at IS NULL AND a.deleted_at IS NULL
         RETURNING s.account_id, a.username`,
        [sessionHash, now, idleBefore],
      );
      const found = rows[0] as Row | undefined;
      return found && { accountID: String(found.account_id), username: String(found.username) };
    },

    async endSession(sessionHash) {
      const { rowCount } = await pool.query(`DELETE FROM ${S}.sessions WHERE session_hash = $1`, [
        sessionHash,
      ]);
      return rowCount === 1;
    },

    async endAccountSessions(accountID) {
      const { rowCount } = await pool.query(`DELETE FROM ${S}.sessions WHERE account_id = $1`, [
        accountID,
      ]);
      return rowCount ?? 0;
    },
  };
}
