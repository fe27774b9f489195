import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { WebAuthnChallengeStore } from './webauthn-challenge-store.ts';

export function postgresWebAuthnChallengeStore({
  pool,
  S,
}: PostgresDatabase): WebAuthnChallengeStore {
  return {
    async putChallenge(challenge, purpose, data, { expiresAt, now }) {
      await pool.query(`DELETE FROM ${S}.webauthn_challenges WHERE expires_at <= $1`, [now]);
      await pool.query(
        `INSERT INTO ${S}.webauthn_challenges (challenge, purpose, data, expires_at)
         VALUES ($1, $2, $3, $4)`,
        [challenge, purpose, JSON.stringify(data), expiresAt],
      );
    },

    async takeChallenge(challenge, purpose, now) {
      // One DELETE takes it: of two instances taking it at once, one gets it.
      const { rows } = await pool.query(
        `DELETE FROM ${S}.webauthn_challenges WHERE challenge = $1 AND purpose = $2
         RETURNING data, expires_at > $3 AS live`,
        [challenge, purpose, now],
      );
      const taken = rows[0] as Row | undefined;
      return taken?.live ? taken.data : undefined;
    },
  };
}
