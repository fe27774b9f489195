import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { SecretStore } from './secret-store.ts';

export function postgresSecretStore({ pool, S }: PostgresDatabase): SecretStore {
  return {
    async serverSecret(name, fresh) {
      // Instances starting together race to store theirs: one wins, all read the winner.
      await pool.query(
        `INSERT INTO ${S}.server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
        [name, fresh],
      );
      const { rows } = await pool.query(`SELECT value FROM ${S}.server_secrets WHERE name = $1`, [
        name,
      ]);
      return String((rows[0] as Row).value);
    },
  };
}
