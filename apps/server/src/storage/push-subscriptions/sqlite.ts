import { PUSH_SUBSCRIPTIONS_PER_SEAT } from '@iron-curtain/protocol';
import type { SqliteDatabase } from '../database/sqlite-database.ts';
import type { PushSubscriptionStore } from './push-subscription-store.ts';
import { pushSubscriptionFromRow, pushSubscriptionValues } from './rows.ts';

export function sqlitePushSubscriptionStore(db: SqliteDatabase): PushSubscriptionStore {
  return {
    savePushSubscription(sub) {
      return db.write(() =>
        db.transaction(() => {
          if (!db.one('SELECT 1 FROM matches WHERE match_id = ?', [sub.matchID])) return false;
          db.run(
            `INSERT INTO push_subscriptions
               (match_id, seat, endpoint, p256dh, auth, language, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (match_id, seat, endpoint) DO UPDATE SET p256dh = excluded.p256dh,
               auth = excluded.auth, language = excluded.language, created_at = excluded.created_at`,
            pushSubscriptionValues(sub),
          );
          db.run(
            `DELETE FROM push_subscriptions WHERE match_id = ? AND seat = ? AND endpoint NOT IN (
               SELECT endpoint FROM push_subscriptions WHERE match_id = ? AND seat = ?
               ORDER BY created_at DESC, endpoint LIMIT ?)`,
            [sub.matchID, sub.seat, sub.matchID, sub.seat, PUSH_SUBSCRIPTIONS_PER_SEAT],
          );
          return true;
        }),
      );
    },

    async listPushSubscriptions(matchID, seat) {
      const rows = db.all(
        `SELECT * FROM push_subscriptions WHERE match_id = ? AND (? IS NULL OR seat = ?)
         ORDER BY created_at, endpoint`,
        [matchID, seat ?? null, seat ?? null],
      );
      return rows.map(pushSubscriptionFromRow);
    },

    async removePushSubscription(matchID, seat, endpoint) {
      const { changes } = await db.write(() =>
        db.run('DELETE FROM push_subscriptions WHERE match_id = ? AND seat = ? AND endpoint = ?', [
          matchID,
          seat,
          endpoint,
        ]),
      );
      return changes > 0;
    },

    async removePushEndpoint(endpoint) {
      const { changes } = await db.write(() =>
        db.run('DELETE FROM push_subscriptions WHERE endpoint = ?', [endpoint]),
      );
      return Number(changes);
    },

    async removeMatchPushSubscriptions(matchID) {
      await db.write(() => db.run('DELETE FROM push_subscriptions WHERE match_id = ?', [matchID]));
    },
  };
}
