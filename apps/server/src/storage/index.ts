import type { Config } from '../ops/config.ts';
import { openPostgresStores } from './postgres.ts';
import { openSqliteStores } from './sqlite.ts';
import type { Stores } from './stores.ts';

export type * from './account-seats/account-seat-store.ts';
export type * from './accounts/account-store.ts';
export type * from './chat/chat-store.ts';
export { CHAT_LINES_KEPT } from './chat/chat-store.ts';
export type * from './decks/deck-store.ts';
export type * from './handovers/handover-store.ts';
export { DEADLINE_WARNING_MS, deadlineOf } from './matches/deadlines.ts';
export type * from './matches/match-store.ts';
export type * from './push-subscriptions/push-subscription-store.ts';
export type * from './ratings/rating-store.ts';
export type * from './secrets/secret-store.ts';
export type * from './sessions/session-store.ts';
export type * from './stores.ts';
export type * from './webauthn-challenges/webauthn-challenge-store.ts';

/** Postgres when DATABASE_URL is set, otherwise the embedded SQLite file under DATA_DIR. */
export async function openStores(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_SCHEMA' | 'DATA_DIR'>,
): Promise<Stores> {
  return config.DATABASE_URL
    ? openPostgresStores(config.DATABASE_URL, config.DATABASE_SCHEMA)
    : openSqliteStores(config.DATA_DIR, { snapshots: true });
}
