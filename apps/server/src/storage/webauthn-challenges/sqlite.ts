import { json } from '../database/columns.ts';
import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { WebAuthnChallengeStore } from './webauthn-challenge-store.ts';

export function sqliteWebAuthnChallengeStore(db: SqliteDatabase): WebAuthnChallengeStore {
  return {
    async putChallenge(challenge, purpose, data, { expiresAt, now }) {
      await db.write(() => {
        db.run('DELETE FROM webauthn_challenges WHERE expires_at <= ?', [now]);
        db.run(
          'INSERT INTO webauthn_challenges (challenge, purpose, data, expires_at) VALUES (?, ?, ?, ?)',
          [challenge, purpose, JSON.stringify(data), expiresAt],
        );
      });
    },

    async takeChallenge(challenge, purpose, now) {
      const taken = await db.write(() =>
        db.one(
          `DELETE FROM webauthn_challenges WHERE challenge = ? AND purpose = ? RETURNING data, expires_at`,
          [challenge, purpose],
        ),
      );
      return taken && String(taken.expires_at) > now ? json(taken.data) : undefined;
    },
  };
}
