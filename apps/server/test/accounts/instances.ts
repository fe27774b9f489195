import { afterAll, beforeAll } from 'vitest';
import type { TimeSource } from '../../src/ops/time.ts';
import { openPostgresStores } from '../../src/storage/postgres.ts';
import { openSqliteStores } from '../../src/storage/sqlite.ts';
import {
  dropSchema,
  POSTGRES_URL,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from '../support.ts';

/** The address the account tests' pages are served from (the relying party's origin). */
export const PUBLIC_URL = 'http://localhost:8000';

/** The servers of an account test: `a` and `b` their addresses. */
export interface AccountInstances {
  first: TestServer;
  second: TestServer;
  a: string;
  b: string;
}

/**
 * The servers an account test runs on, started before the describe's tests and closed after:
 * on SQLite one server (first and second are the same), on Postgres two instances sharing one
 * fresh schema, so what one instance does, the other must know. `env` adds to PUBLIC_URL. Read
 * the fields inside tests.
 */
export function accountInstances(
  kind: 'sqlite' | 'postgres',
  options: { time?: TimeSource; env?: Record<string, string> } = {},
): AccountInstances {
  const schema = uniqueSchema();
  const env = { PUBLIC_URL, ...options.env };
  const time = options.time;
  const on = {} as AccountInstances;
  beforeAll(async () => {
    if (kind === 'sqlite') {
      on.first = await startServer({ env, stores: openSqliteStores(tempDir()), time });
      on.second = on.first;
    } else {
      const start = async () =>
        startServer({
          env: { ...env, DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: schema },
          stores: await openPostgresStores(POSTGRES_URL, schema),
          time,
        });
      on.first = await start();
      on.second = await start();
    }
    on.a = on.first.url;
    on.b = on.second.url;
  });
  afterAll(async () => {
    await on.first?.close();
    if (on.second !== on.first) await on.second?.close();
    if (kind === 'postgres') await dropSchema(schema);
  });
  return on;
}
