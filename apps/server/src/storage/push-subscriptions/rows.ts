import type { Seat } from '@iron-curtain/game';
import { iso, type Row, text } from '../database/columns.ts';
import type { PushSubscriptionRecord } from './push-subscription-store.ts';

/** A subscription as both backends read its row. */
export function pushSubscriptionFromRow(row: Row): PushSubscriptionRecord {
  return {
    matchID: text(row.match_id),
    seat: text(row.seat) as Seat,
    endpoint: text(row.endpoint),
    p256dh: text(row.p256dh),
    auth: text(row.auth),
    language: text(row.language) as PushSubscriptionRecord['language'],
    createdAt: iso(row.created_at),
  };
}

/** A subscription's columns as both backends write them, in the order of their INSERT. */
export function pushSubscriptionValues(sub: PushSubscriptionRecord): string[] {
  return [sub.matchID, sub.seat, sub.endpoint, sub.p256dh, sub.auth, sub.language, sub.createdAt];
}
