import { PUSH_SUBSCRIPTIONS_PER_SEAT } from '@iron-curtain/protocol';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import type { PushSubscriptionStore } from './push-subscription-store.ts';
import { pushSubscriptionFromRow, pushSubscriptionValues } from './rows.ts';

/** Postgres's SQLSTATE for a row whose foreign key names no row. */
const FOREIGN_KEY_VIOLATION = '23503';

export function postgresPushSubscriptionStore(db: PostgresDatabase): PushSubscriptionStore {
  const { pool, S } = db;
  return {
    async savePushSubscription(sub) {
      try {
        return await db.inTransaction(async (c) => {
          const { rowCount } = await c.query(
            `INSERT INTO ${S}.push_subscriptions
               (match_id, seat, endpoint, p256dh, auth, language, created_at)
             SELECT match_id, $2, $3, $4, $5, $6, $7 FROM ${S}.matches WHERE match_id = $1
             ON CONFLICT (match_id, seat, endpoint) DO UPDATE SET p256dh = excluded.p256dh,
               auth = excluded.auth, language = excluded.language, created_at = excluded.created_at`,
            pushSubscriptionValues(sub),
          );
          if (rowCount !== 1) return false;
          await c.query(
            `DELETE FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2 AND endpoint NOT IN (
               SELECT endpoint FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2
               ORDER BY created_at DESC, endpoint LIMIT $3)`,
            [sub.matchID, sub.seat, PUSH_SUBSCRIPTIONS_PER_SEAT],
          );
          return true;
        });
      } catch (error) {
        // The match was removed between the SELECT and the foreign key's check.
        if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return false;
        throw error;
      }
    },

    async listPushSubscriptions(matchID, seat) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.push_subscriptions WHERE match_id = $1 AND ($2::text IS NULL OR seat = $2)
         ORDER BY created_at, endpoint`,
        [matchID, seat ?? null],
      );
      return rows.map(pushSubscriptionFromRow);
    },

    async removePushSubscription(matchID, seat, endpoint) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2 AND endpoint = $3`,
        [matchID, seat, endpoint],
      );
      return (rowCount ?? 0) > 0;
    },

    async removePushEndpoint(endpoint) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${S}.push_subscriptions WHERE endpoint = $1`,
        [endpoint],
      );
      return rowCount ?? 0;
    },

    async removeMatchPushSubscriptions(matchID) {
      await pool.query(`DELETE FROM ${S}.push_subscriptions WHERE match_id = $1`, [matchID]);
    },
  };
}
