import fs from 'node:fs';
import path from 'node:path';
import {
  DatabaseSync,
  type SQLInputValue,
  type StatementResultingChanges,
  type StatementSync,
} from 'node:sqlite';
import type { Row } from './columns.ts';
import { MIGRATIONS } from './sqlite-schema.ts';
import { type WalSync, walSync } from './wal-sync.ts';

export const SQLITE_FILE = 'iron-curtain.sqlite';

/** SQLite's SQLITE_BUSY: another connection holds the lock. */
const SQLITE_BUSY = 5;

/**
 * The one connection to the SQLite file every store of the embedded backend shares: its
 * statements, its transactions and its WAL's fsyncs.
 */
export interface SqliteDatabase {
  run(sql: string, values?: SQLInputValue[]): StatementResultingChanges;
  all(sql: string, values?: SQLInputValue[]): Row[];
  one(sql: string, values?: SQLInputValue[]): Row | undefined;
  /** Runs `work` in one transaction (BEGIN IMMEDIATE), rolled back when it throws. */
  transaction<T>(work: () => T): T;
  /** A write, resolved once it is on disk; none is made after a failed fsync. */
  write<T>(work: () => T): Promise<T>;
  /** The WAL's fsyncs, for a store that commits in groups of its own (see MatchStore.commitMove). */
  readonly syncs: WalSync;
  /** Runs at close, before the last fsync: a store writes what it still holds. */
  beforeClose(hook: () => void): void;
  /** Throws when the file cannot serve requests. */
  ping(): void;
  close(): Promise<void>;
}

function migrate(db: DatabaseSync): void {
  const version = Number((db.prepare('PRAGMA user_version').get() as Row).user_version);
  for (let v = version; v < MIGRATIONS.length; v++) {
    transaction(db, () => {
      db.exec(MIGRATIONS[v] as string);
      db.exec(`PRAGMA user_version = ${v + 1}`);
    });
  }
}

function transaction<T>(db: DatabaseSync, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    try {
      db.exec('ROLLBACK');
    } catch {
      // Some failures (a full disk, an I/O error) end the transaction themselves, and Node 22.13
      // cannot ask whether one is open: the ROLLBACK then has nothing to undo.
    }
    throw error;
  }
}

/** Opens the file and takes SQLite's exclusive lock on it, or says who holds it. */
function openOwned(dataDir: string, file: string): DatabaseSync {
  const db = new DatabaseSync(file);
  try {
    // Exclusive locking: the first statement that touches the file takes SQLite's own lock
    // (fcntl) and holds it until close, so a second server on the same DATA_DIR, in this
    // process or another, is refused; the kernel drops the lock of a killed owner, so nothing
    // is left behind to clean up.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    const { journal_mode } = db.prepare('PRAGMA journal_mode = WAL').get() as Row;
    // Durability rests on syncing the WAL: a file in any other mode would go unsynced.
    if (journal_mode !== 'wal') throw new Error(`${file} cannot use a WAL journal`);
    // A commit writes the WAL without an fsync; walSync below runs it off the event loop.
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec('PRAGMA foreign_keys = ON');
    migrate(db);
    return db;
  } catch (error) {
    db.close();
    if ((error as { errcode?: number }).errcode === SQLITE_BUSY) {
      throw new Error(`DATA_DIR ${dataDir} is in use by another server`, { cause: error });
    }
    throw error;
  }
}

/**
 * The embedded database: one SQLite file under DATA_DIR, through Node's built-in SQLite
 * (node:sqlite: native, nothing to install), migrated on open. One process owns the file: the
 * WAL journal in exclusive locking mode. A write resolves once an fsync of the WAL that began
 * after it has finished (on the thread pool, so the event loop goes on meanwhile).
 */
export function openSqliteDatabase(dataDir: string): SqliteDatabase {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SQLITE_FILE);
  const db = openOwned(dataDir, file);
  let open = true;
  const closing: (() => void)[] = [];

  // Statements are prepared once: preparing one costs as much as running it (measured: 6 %
  // of the server's time per move). Rows are read to the end, so no statement keeps a read
  // open that would hold back the WAL's checkpoint.
  const prepared = new Map<string, StatementSync>();
  const statement = (sql: string): StatementSync => {
    let ready = prepared.get(sql);
    if (!ready) {
      ready = db.prepare(sql);
      prepared.set(sql, ready);
    }
    return ready;
  };
  // Opened at the first sync (SQLite creates the WAL at the first write), with the folder
  // synced once so the WAL's name is on disk too. The WAL is the same file until close.
  let wal: Promise<fs.promises.FileHandle> | undefined;
  const openWal = async () => {
    const handle = await fs.promises.open(`${file}-wal`, 'r+');
    const folder = await fs.promises.open(dataDir, 'r');
    try {
      await folder.sync();
    } finally {
      await folder.close();
    }
    return handle;
  };
  const syncs = walSync(async () => {
    wal ??= openWal();
    await (await wal).sync();
  });

  const all = (sql: string, values: SQLInputValue[] = []) => statement(sql).all(...values) as Row[];

  return {
    run: (sql, values = []) => statement(sql).run(...values),
    all,
    one: (sql, values) => all(sql, values)[0],
    transaction: (work) => transaction(db, work),
    async write(work) {
      syncs.check();
      const result = work();
      await syncs.afterWrite();
      return result;
    },
    syncs,
    beforeClose(hook) {
      closing.push(hook);
    },
    ping() {
      syncs.check();
      all('SELECT 1');
    },
    async close() {
      if (open) {
        open = false;
        for (const hook of closing) hook();
        await syncs.afterWrite().catch(() => undefined);
        // Finalizes every prepared statement and releases the lock on the file.
        db.close();
      }
      await wal?.then(
        (handle) => handle.close(),
        () => undefined,
      );
    },
  };
}
