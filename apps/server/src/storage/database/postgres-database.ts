import pg from 'pg';
import { MIGRATIONS } from './postgres-schema.ts';

/**
 * The one pool every store of the Postgres backend shares, on the tables of one schema.
 */
export interface PostgresDatabase {
  readonly pool: pg.Pool;
  /** The schema's name, as it names prepared statements and advisory locks. */
  readonly schema: string;
  /** The schema's name quoted, as it prefixes the tables in SQL. */
  readonly S: string;
  /** Runs `work` in one transaction on one client of the pool, rolled back when it throws. */
  inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T>;
  /** Runs at close, before the pool ends: a store settles what it still holds. */
  beforeClose(hook: () => Promise<void>): void;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

async function inTransaction<T>(pool: pg.Pool, work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

async function migrate(pool: pg.Pool, schema: string, S: string): Promise<void> {
  await inTransaction(pool, async (c) => {
    // Several servers may start at once: one migrates, the others wait for it.
    await c.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`iron-curtain:${schema}`]);
    await c.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
    await c.query(`CREATE TABLE IF NOT EXISTS ${S}.schema_version (version integer NOT NULL)`);
    const { rows } = await c.query(`SELECT max(version) AS v FROM ${S}.schema_version`);
    const version = Number(rows[0]?.v ?? 0);
    for (let v = version; v < MIGRATIONS.length; v++) {
      await c.query((MIGRATIONS[v] as (S: string) => string)(S));
      await c.query(`INSERT INTO ${S}.schema_version (version) VALUES ($1)`, [v + 1]);
    }
  });
}

/** The Postgres database (DATABASE_URL): tables in DATABASE_SCHEMA, created or migrated on open. */
export async function openPostgresDatabase(url: string, schema: string): Promise<PostgresDatabase> {
  const S = `"${schema}"`;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client losing its connection must not take the process down.
  pool.on('error', () => undefined);
  try {
    await migrate(pool, schema, S);
  } catch (error) {
    await pool.end();
    throw error;
  }
  const closing: (() => Promise<void>)[] = [];
  return {
    pool,
    schema,
    S,
    inTransaction: (work) => inTransaction(pool, work),
    beforeClose(hook) {
      closing.push(hook);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      for (const hook of closing) await hook();
      await pool.end();
    },
  };
}
