import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { HandoverStore } from './handover-store.ts';
import { handoverTry } from './rows.ts';

export function postgresHandoverStore({ pool, S }: PostgresDatabase): HandoverStore {
  return {
    async putHandover(key, sealed, { expiresAt, now, forgetBefore }) {
      await pool.query(`DELETE FROM ${S}.handovers WHERE expires_at <= $1`, [forgetBefore]);
      await pool.query(
        `UPDATE ${S}.handovers SET sealed = '' WHERE expires_at <= $1 AND sealed <> ''`,
        [now],
      );
      const { rowCount } = await pool.query(
        `INSERT INTO ${S}.handovers (key, sealed, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO NOTHING`,
        [key, sealed, expiresAt],
      );
      return rowCount === 1;
    },

    async tryHandover(key, maxTries) {
      // One UPDATE counts the try: of tries on several instances at once, at most maxTries count.
      const counted = await pool.query(
        `UPDATE ${S}.handovers SET tries = tries + 1 WHERE key = $1 AND tries < $2
         RETURNING sealed, expires_at, used_at, tries`,
        [key, maxTries],
      );
      if (counted.rows[0]) return handoverTry(counted.rows[0] as Row, true);
      const found = await pool.query(
        `SELECT sealed, expires_at, used_at, tries FROM ${S}.handovers WHERE key = $1`,
        [key],
      );
      return found.rows[0] ? handoverTry(found.rows[0] as Row, false) : undefined;
    },

    async useHandover(key, now) {
      const { rowCount } = await pool.query(
        `UPDATE ${S}.handovers SET used_at = $2, sealed = '' WHERE key = $1 AND used_at IS NULL`,
        [key, now],
      );
      return rowCount === 1;
    },
  };
}
