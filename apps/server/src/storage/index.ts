import type { Config } from '../ops/config.ts';
import { openPostgresStore } from './postgres.ts';
import { openSqliteStore } from './sqlite.ts';
import type { Store } from './store.ts';

export { DEADLINE_WARNING_MS, deadlineOf } from './deadlines.ts';
export type * from './store.ts';
export { CHAT_LINES_KEPT } from './store.ts';

/** Postgres when DATABASE_URL is set, otherwise the embedded SQLite file under DATA_DIR. */
export async function openStore(
  config: Pick<Config, 'DATABASE_URL' | 'DATABASE_SCHEMA' | 'DATA_DIR'>,
): Promise<Store> {
  return config.DATABASE_URL
    ? openPostgresStore(config.DATABASE_URL, config.DATABASE_SCHEMA)
    : openSqliteStore(config.DATA_DIR, { snapshots: true });
}
