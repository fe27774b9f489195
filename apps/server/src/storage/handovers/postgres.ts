import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { HandoverStore } from './handover-store.ts';

export function postgresHandoverStore({ pool, S }: PostgresDatabase): HandoverStore {
  return {
    async putHandover(key, sealed, expiresAt, now) {
      await pool.query(`DELETE FROM ${S}.handovers WHERE expires_at <= $1`, [now]);
      await pool.query(`INSERT INTO ${S}.handovers (key, sealed, expires_at) VALUES ($1, $2, $3)`, [
        key,
        sealed,
        expiresAt,
      ]);
    },

    async takeHandover(key, now) {
      // One DELETE: of two instances redeeming the same code at once, one gets the row.
      const { rows } = await pool.query(
        `DELETE FROM ${S}.handovers WHERE key = $1 RETURNING sealed, expires_at > $2 AS fresh`,
        [key, now],
      );
      const row = rows[0] as Row | undefined;
      return row?.fresh ? String(row.sealed) : undefined;
    },
  };
}
