import fs from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import type { Seat } from '@iron-curtain/game';
import { PUSH_SUBSCRIPTIONS_PER_SEAT } from '@iron-curtain/protocol';
import { deadlineColumns } from './deadlines.ts';
import { upgradeState } from './legacy-state.ts';
import { replayMoves } from './replay.ts';
import {
  chatFromRow,
  deckFromRow,
  handoverTry,
  jsonOrNull,
  MATCH_COLUMNS,
  matchFromRows,
  matchRowValues,
  moveFromRow,
  pushSubscriptionFromRow,
} from './rows.ts';
import type {
  ClockRecord,
  DueWarning,
  MatchListQuery,
  MatchRecord,
  MatchResult,
  MatchStatus,
  MoveRecord,
  RematchState,
  Store,
  StoredDeck,
  StoredState,
} from './store.ts';
import { CHAT_LINES_KEPT } from './store.ts';
import { walSync } from './wal-sync.ts';

type Row = Record<string, unknown>;

/** How one move of a group fared: stored or stale (`ok`), or failed. */
type MoveOutcome = { ok: boolean } | { error: unknown };

/** A commitMove waiting for its group's transaction. */
interface PendingMove {
  matchID: string;
  expectedStateID: number;
  next: StoredState;
  move: MoveRecord;
  result: MatchResult | null;
  clock: ClockRecord | undefined;
  resolve: (written: boolean) => void;
  reject: (error: unknown) => void;
}

export const SQLITE_FILE = 'iron-curtain.sqlite';

const MIGRATIONS: string[] = [
  `CREATE TABLE matches (
     match_id TEXT PRIMARY KEY,
     visibility TEXT NOT NULL,
     status TEXT NOT NULL,
     variants TEXT NOT NULL,
     deck TEXT NOT NULL,
     setup_data TEXT NOT NULL,
     seed TEXT NOT NULL,
     invite_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     result TEXT
   );
   CREATE INDEX matches_listing ON matches (visibility, status, created_at);
   CREATE TABLE seats (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     seat TEXT NOT NULL,
     side TEXT NOT NULL,
     name TEXT,
     credentials_hash TEXT,
     PRIMARY KEY (match_id, seat)
   );
   CREATE TABLE states (
     match_id TEXT PRIMARY KEY REFERENCES matches (match_id),
     state_id INTEGER NOT NULL,
     state TEXT NOT NULL
   );
   CREATE TABLE moves (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     state_id INTEGER NOT NULL,
     seat TEXT NOT NULL,
     move TEXT NOT NULL,
     args TEXT NOT NULL,
     entries TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (match_id, state_id)
   );
   CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
   CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;`,
  // Turn clock, rematch links, seats' absence (abandonment), uploaded decks.
  `ALTER TABLE matches ADD COLUMN clock TEXT;
   ALTER TABLE matches ADD COLUMN rematch TEXT;
   ALTER TABLE matches ADD COLUMN rematch_of TEXT;
   ALTER TABLE seats ADD COLUMN away_since TEXT;
   CREATE TABLE decks (
     hash TEXT PRIMARY KEY,
     info TEXT NOT NULL,
     file TEXT NOT NULL,
     created_at TEXT NOT NULL
   );`,
  // Secrets of the server itself (the key of computer players' credentials).
  `CREATE TABLE server_secrets (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Match chat (the creator's switch, each seat's mute), and removing old matches: the move
  // log stays append-only except while its match is being removed whole.
  `ALTER TABLE matches ADD COLUMN chat_off INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE seats ADD COLUMN muting_opponent INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE chat_lines (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     room TEXT NOT NULL,
     seat TEXT,
     phrase TEXT,
     text TEXT,
     at TEXT NOT NULL
   );
   CREATE INDEX chat_lines_match ON chat_lines (match_id, id);
   CREATE INDEX matches_age ON matches (status, updated_at);
   DROP TRIGGER moves_no_delete;
   CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
     WHEN (SELECT status FROM matches WHERE match_id = OLD.match_id) IS NOT 'removing'
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;`,
  // Seats handed over to another browser with a one-time code, kept sealed for minutes.
  `CREATE TABLE handovers (
     key TEXT PRIMARY KEY,
     sealed TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );`,
  // Browsers a seat asked to be told by Web Push when it is its turn.
  `CREATE TABLE push_subscriptions (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     seat TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     p256dh TEXT NOT NULL,
     auth TEXT NOT NULL,
     language TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (match_id, seat, endpoint)
   );
   CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);`,
  // Correspondence play (days per turn), and every running turn's deadline and warning kept
  // with its match, indexed, for the deadline sweep.
  `ALTER TABLE matches ADD COLUMN days_per_turn INTEGER;
   ALTER TABLE matches ADD COLUMN deadline TEXT;
   ALTER TABLE matches ADD COLUMN warn_at TEXT;
   CREATE INDEX matches_deadline ON matches (deadline) WHERE deadline IS NOT NULL;
   CREATE INDEX matches_warn_at ON matches (warn_at) WHERE warn_at IS NOT NULL;`,
  // The state row keeps the latest state id (the compare-and-set) and the state as of
  // snapshot_id (null: as of state_id, as every row written before); the moves after it are
  // in the move log.
  `ALTER TABLE states ADD COLUMN snapshot_id INTEGER;`,
  // Handovers: found by their code's locator, each counting the tries at it, and kept (used
  // or not) past its expiry. Codes made before were keyed otherwise and open nothing now.
  `DELETE FROM handovers;
   ALTER TABLE handovers ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE handovers ADD COLUMN used_at TEXT;`,
];

/**
 * With `snapshots`, a move's whole state is written only when its id is a multiple of this;
 * the other moves are in the log alone, and a load replays at most SNAPSHOT_EVERY - 1 of them.
 * Rewriting the whole state (1.8 kB of JSON) per move was about 30 of the 80 us of CPU a
 * move's write cost.
 */
export const SNAPSHOT_EVERY = 16;

export interface SqliteOptions {
  /**
   * Keep most moves in the log alone (see SNAPSHOT_EVERY): only for moves whose state is the
   * one replaying them gives, as the engine's are. A load replays whatever the file holds.
   */
  snapshots?: boolean;
}

/** Everything stored with a match, children first (the match row goes last). */
const MATCH_TABLES = [
  'push_subscriptions',
  'chat_lines',
  'moves',
  'states',
  'seats',
  'matches',
] as const;

/** SQLite's SQLITE_BUSY: another connection holds the lock. */
const SQLITE_BUSY = 5;

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
 * The embedded store: one SQLite file under DATA_DIR, through Node's built-in SQLite
 * (node:sqlite: native, nothing to install). One process owns the
 * file: the WAL journal in exclusive locking mode. A write resolves once an fsync of the WAL
 * that began after it has finished (on the thread pool, so the event loop goes on meanwhile);
 * moves of one event-loop turn share one commit, and commits made during an fsync the next one.
 */
export function openSqliteStore(dataDir: string, { snapshots = false }: SqliteOptions = {}): Store {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SQLITE_FILE);
  const db = openOwned(dataDir, file);
  let open = true;

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
  /** A write, resolved once it is on disk; none is made after a failed fsync. */
  const write = async <T>(work: () => T): Promise<T> => {
    syncs.check();
    const result = work();
    await syncs.afterWrite();
    return result;
  };

  const run = (sql: string, values: SQLInputValue[] = []) => statement(sql).run(...values);
  const all = (sql: string, values: SQLInputValue[] = []) => statement(sql).all(...values) as Row[];
  const one = (sql: string, values: SQLInputValue[] = []): Row | undefined => all(sql, values)[0];

  const seatsOf = (matchID: string) =>
    all('SELECT * FROM seats WHERE match_id = ? ORDER BY seat', [matchID]);

  const insertMatch = (match: MatchRecord, initial: StoredState) => {
    run(
      `INSERT INTO matches (${MATCH_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      matchRowValues(match),
    );
    for (const p of match.players) {
      run(
        'INSERT INTO seats (match_id, seat, side, name, credentials_hash) VALUES (?, ?, ?, ?, ?)',
        [match.matchID, p.seat, p.side, p.name, p.credentialsHash],
      );
    }
    run('INSERT INTO states (match_id, state_id, state) VALUES (?, ?, ?)', [
      match.matchID,
      initial._stateID,
      JSON.stringify(initial),
    ]);
  };

  /** One move's compare-and-set write, inside the group's transaction; false when stale. */
  const writeMove = (m: PendingMove): boolean => {
    // Every right-hand side reads the row as it was: a move in the log alone keeps the
    // snapshot its load starts from.
    const written = (
      !snapshots || m.next._stateID % SNAPSHOT_EVERY === 0
        ? run(
            `UPDATE states SET state_id = ?, state = ?, snapshot_id = NULL
             WHERE match_id = ? AND state_id = ?
               AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'playing')`,
            [m.next._stateID, JSON.stringify(m.next), m.matchID, m.expectedStateID, m.matchID],
          )
        : run(
            `UPDATE states SET state_id = ?, snapshot_id = coalesce(snapshot_id, state_id)
             WHERE match_id = ? AND state_id = ?
               AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'playing')`,
            [m.next._stateID, m.matchID, m.expectedStateID, m.matchID],
          )
    ).changes;
    if (written !== 1) return false;
    run(
      `INSERT INTO moves (match_id, state_id, seat, move, args, entries, at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [
        m.matchID,
        m.move.stateID,
        m.move.seat,
        m.move.move,
        JSON.stringify(m.move.args),
        JSON.stringify(m.move.entries),
        m.move.at,
      ],
    );
    const { deadline, warnAt } = deadlineColumns(m.clock);
    const clocked = m.clock ? 1 : 0;
    // Every right-hand side reads the row as it was. The same seat deciding again keeps its
    // turn's deadline, and its warning.
    run(
      `UPDATE matches SET updated_at = ?, clock = coalesce(?, clock),
         deadline = CASE WHEN ? THEN ? ELSE deadline END,
         warn_at = CASE WHEN ? AND ? IS NOT deadline THEN ? ELSE warn_at END,
         status = CASE WHEN ? IS NULL THEN status ELSE 'finished' END,
         result = coalesce(?, result)
       WHERE match_id = ?`,
      [
        m.move.at,
        jsonOrNull(m.clock),
        clocked,
        deadline,
        clocked,
        deadline,
        warnAt,
        jsonOrNull(m.result),
        jsonOrNull(m.result),
        m.matchID,
      ],
    );
    return true;
  };

  /** One move of a group written alone, under its own savepoint: a failure undoes it only. */
  const writeAlone = (m: PendingMove): MoveOutcome => {
    // Prepared like every statement: exec compiles its SQL anew each time.
    run('SAVEPOINT move');
    try {
      const outcome = { ok: writeMove(m) };
      run('RELEASE move');
      return outcome;
    } catch (error) {
      run('ROLLBACK TO move');
      run('RELEASE move');
      return { error };
    }
  };

  /**
   * A group's moves in one transaction. A write that throws (a move the log already holds,
   * the disk) is rare: only then is the group written again move by move, each alone, so that
   * move fails and the rest land. (Two statements per move of savepoints cost every group.)
   */
  const writeGroup = (group: PendingMove[]): MoveOutcome[] => {
    try {
      return transaction(db, () => group.map((m) => ({ ok: writeMove(m) })));
    } catch {
      return transaction(db, () => group.map(writeAlone));
    }
  };

  // Group commit: the moves that arrive while a group is committed and synced form the next
  // group, one transaction (each commit rewrites whole pages into the WAL, so small groups
  // write the same pages many times). Each move's compare-and-set wins or fails alone (see
  // writeGroup). Callers learn their outcome only once the WAL is synced, so nothing
  // is broadcast before it is on disk.
  let pendingMoves: PendingMove[] = [];
  let groupInFlight = false;
  const scheduleGroup = () => {
    if (!groupInFlight && pendingMoves.length > 0) {
      groupInFlight = true;
      setImmediate(commitPendingMoves);
    }
  };
  const commitPendingMoves = () => {
    const group = pendingMoves;
    pendingMoves = [];
    const failGroup = (error: unknown) => {
      for (const m of group) m.reject(error);
    };
    const next = () => {
      groupInFlight = false;
      scheduleGroup();
    };
    let outcomes: MoveOutcome[];
    try {
      syncs.check();
      outcomes = writeGroup(group);
    } catch (error) {
      failGroup(error);
      next();
      return;
    }
    syncs
      .afterWrite()
      .then(() => {
        group.forEach((m, i) => {
          const outcome = outcomes[i] as MoveOutcome;
          if ('ok' in outcome) m.resolve(outcome.ok);
          else m.reject(outcome.error);
        });
      }, failGroup)
      .finally(next);
  };

  return {
    kind: 'sqlite',

    createMatch(match: MatchRecord, initial: StoredState) {
      return write(() => transaction(db, () => insertMatch(match, initial)));
    },

    async getMatch(matchID) {
      const row = one('SELECT * FROM matches WHERE match_id = ?', [matchID]);
      return row ? matchFromRows(row, seatsOf(matchID)) : undefined;
    },

    async listPublicMatches({ status, limit, openOnly = false }: MatchListQuery) {
      const listed = openOnly ? `visibility = 'open'` : `visibility IN ('public', 'open')`;
      const rows =
        status === undefined
          ? all(
              `SELECT * FROM matches WHERE ${listed}
               ORDER BY created_at DESC, match_id LIMIT ?`,
              [limit],
            )
          : all(
              `SELECT * FROM matches WHERE ${listed} AND status = ?
               ORDER BY created_at DESC, match_id LIMIT ?`,
              [status, limit],
            );
      return rows.map((row) => matchFromRows(row, seatsOf(String(row.match_id))));
    },

    claimSeat(matchID, seat: Seat, name, credentialsHash, at) {
      return write(() =>
        transaction(db, () => {
          const claimed = run(
            `UPDATE seats SET name = ?, credentials_hash = ?
           WHERE match_id = ? AND seat = ? AND credentials_hash IS NULL
             AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'waiting')`,
            [name, credentialsHash, matchID, seat, matchID],
          ).changes;
          if (claimed !== 1) return false;
          run(
            `UPDATE matches SET updated_at = ?,
             status = CASE WHEN (SELECT count(*) FROM seats
                                 WHERE match_id = ? AND credentials_hash IS NULL) = 0
                      THEN 'playing' ELSE status END
           WHERE match_id = ?`,
            [at, matchID, matchID],
          );
          return true;
        }),
      );
    },

    finishMatch(matchID, result: MatchResult | null, at, clock?: ClockRecord) {
      return write(
        () =>
          run(
            `UPDATE matches SET status = 'finished', result = ?, updated_at = ?,
             clock = coalesce(?, clock), deadline = NULL, warn_at = NULL
           WHERE match_id = ? AND status <> 'finished'`,
            [jsonOrNull(result), at, jsonOrNull(clock), matchID],
          ).changes === 1,
      );
    },

    async loadState(matchID) {
      const row = one(
        `SELECT s.state, s.state_id, s.snapshot_id, m.deck, m.setup_data
         FROM states s JOIN matches m USING (match_id) WHERE match_id = ?`,
        [matchID],
      );
      if (!row) return undefined;
      const match = {
        deck: JSON.parse(String(row.deck)),
        setupData: JSON.parse(String(row.setup_data)),
      };
      const snapshot = upgradeState(JSON.parse(String(row.state)) as StoredState, match);
      if (row.snapshot_id === null) return snapshot;
      const since = all(
        `SELECT state_id, seat, move, args, entries, at FROM moves
         WHERE match_id = ? AND state_id > ? AND state_id <= ? ORDER BY state_id`,
        [matchID, Number(row.snapshot_id), Number(row.state_id)],
      ).map(moveFromRow);
      const state = replayMoves(match, snapshot, since);
      if (state._stateID !== Number(row.state_id)) {
        throw new Error(`match ${matchID}: its log replays to state ${state._stateID}`);
      }
      return state;
    },

    commitMove(matchID, expectedStateID, next, move: MoveRecord, result, clock?) {
      return new Promise<boolean>((resolve, reject) => {
        pendingMoves.push({ matchID, expectedStateID, next, move, result, clock, resolve, reject });
        scheduleGroup();
      });
    },

    async listRunningClocks() {
      const rows = all(
        `SELECT * FROM matches
         WHERE status = 'playing' AND clock IS NOT NULL AND days_per_turn IS NULL`,
      );
      return rows.map((row) => matchFromRows(row, seatsOf(String(row.match_id))));
    },

    async listDueMatches(now, limit) {
      return all(
        `SELECT match_id FROM matches
         WHERE deadline <= ? AND status = 'playing' ORDER BY deadline LIMIT ?`,
        [now, limit],
      ).map((row) => String(row.match_id));
    },

    takeDueWarnings(now, limit) {
      return write(() =>
        transaction(db, () => {
          const rows = all(
            `SELECT match_id, clock, deadline FROM matches
             WHERE warn_at <= ? AND status = 'playing' ORDER BY warn_at LIMIT ?`,
            [now, limit],
          );
          for (const row of rows) {
            run('UPDATE matches SET warn_at = NULL WHERE match_id = ?', [String(row.match_id)]);
          }
          return rows.flatMap((row): DueWarning[] => {
            const seat =
              row.clock == null ? null : (JSON.parse(String(row.clock)) as ClockRecord).running;
            return seat && row.deadline != null
              ? [{ matchID: String(row.match_id), seat, deadline: String(row.deadline) }]
              : [];
          });
        }),
      );
    },

    // One process owns the file: no other sweep can run meanwhile.
    inSweepTurn(work) {
      return work();
    },

    async setClock(matchID, clock: ClockRecord) {
      const { deadline, warnAt } = deadlineColumns(clock);
      await write(() =>
        run('UPDATE matches SET clock = ?, deadline = ?, warn_at = ? WHERE match_id = ?', [
          jsonOrNull(clock),
          deadline,
          warnAt,
          matchID,
        ]),
      );
    },

    async setAway(matchID, seat: Seat, at: string | null) {
      await write(() =>
        run(
          `UPDATE seats SET away_since = CASE WHEN ? IS NULL THEN NULL
           ELSE coalesce(away_since, ?) END
         WHERE match_id = ? AND seat = ?`,
          [at, at, matchID, seat],
        ),
      );
    },

    offerRematch(matchID, seat: Seat) {
      return write(() =>
        transaction(db, () => {
          const row = one('SELECT status, rematch FROM matches WHERE match_id = ?', [matchID]);
          if (row?.status !== 'finished') return undefined;
          const rematch: RematchState =
            row.rematch == null ? { offers: [], matchID: null } : JSON.parse(String(row.rematch));
          if (!rematch.offers.includes(seat)) rematch.offers = [...rematch.offers, seat].sort();
          run('UPDATE matches SET rematch = ? WHERE match_id = ?', [
            JSON.stringify(rematch),
            matchID,
          ]);
          return rematch;
        }),
      );
    },

    linkRematch(matchID, rematch: MatchRecord, initial: StoredState) {
      return write(() =>
        transaction(db, () => {
          const row = one('SELECT rematch FROM matches WHERE match_id = ?', [matchID]);
          const current: RematchState | null =
            row?.rematch == null ? null : JSON.parse(String(row.rematch));
          if (!row || current?.matchID) return false;
          insertMatch(rematch, initial);
          run('UPDATE matches SET rematch = ? WHERE match_id = ?', [
            JSON.stringify({ offers: current?.offers ?? [], matchID: rematch.matchID }),
            matchID,
          ]);
          return true;
        }),
      );
    },

    saveDeck(deck: StoredDeck) {
      return write(
        () =>
          run('INSERT OR IGNORE INTO decks (hash, info, file, created_at) VALUES (?, ?, ?, ?)', [
            deck.info.hash,
            JSON.stringify(deck.info),
            JSON.stringify(deck.file),
            deck.createdAt,
          ]).changes === 1,
      );
    },

    async getDeck(hash) {
      const row = one('SELECT * FROM decks WHERE hash = ?', [hash]);
      return row ? deckFromRow(row) : undefined;
    },

    async listDecks() {
      return all('SELECT * FROM decks ORDER BY created_at, hash').map(deckFromRow);
    },

    async readMoves(matchID) {
      const rows = all(
        `SELECT state_id, seat, move, args, entries, at FROM moves WHERE match_id = ?
         ORDER BY state_id`,
        [matchID],
      );
      return rows.map(moveFromRow);
    },

    async addChatLine(line) {
      const { changes, lastInsertRowid } = await write(() => {
        const added = run(
          `INSERT INTO chat_lines (match_id, room, seat, phrase, text, at)
         SELECT ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM matches WHERE match_id = ?)`,
          [
            line.matchID,
            line.room,
            line.seat,
            line.phrase ?? null,
            line.text ?? null,
            line.at,
            line.matchID,
          ],
        );
        run(
          `DELETE FROM chat_lines WHERE match_id = ? AND room = ? AND id <= (
             SELECT id FROM chat_lines WHERE match_id = ? AND room = ?
             ORDER BY id DESC LIMIT 1 OFFSET ?)`,
          [line.matchID, line.room, line.matchID, line.room, CHAT_LINES_KEPT],
        );
        return added;
      });
      return changes === 1 ? { ...line, id: Number(lastInsertRowid) } : undefined;
    },

    async readChat(matchID) {
      const rows = all('SELECT * FROM chat_lines WHERE match_id = ? ORDER BY id', [matchID]);
      return rows.map(chatFromRow);
    },

    async setChatOff(matchID, off) {
      await write(() =>
        run('UPDATE matches SET chat_off = ? WHERE match_id = ?', [off ? 1 : 0, matchID]),
      );
    },

    async setMuting(matchID, seat: Seat, muting) {
      await write(() =>
        run('UPDATE seats SET muting_opponent = ? WHERE match_id = ? AND seat = ?', [
          muting ? 1 : 0,
          matchID,
          seat,
        ]),
      );
    },

    // One process owns the file: no other removal can run meanwhile.
    removeMatches({ unfinishedBefore, finishedBefore, limit }) {
      return write(() =>
        transaction(db, () => {
          const rows = all(
            `SELECT match_id, status FROM matches
           WHERE (status <> 'finished' AND updated_at < ? AND deadline IS NULL)
              OR (? IS NOT NULL AND status = 'finished' AND updated_at < ?)
           ORDER BY updated_at LIMIT ?`,
            [unfinishedBefore, finishedBefore, finishedBefore, limit],
          );
          for (const row of rows) {
            const matchID = String(row.match_id);
            run(`UPDATE matches SET status = 'removing' WHERE match_id = ?`, [matchID]);
            for (const table of MATCH_TABLES) {
              run(`DELETE FROM ${table} WHERE match_id = ?`, [matchID]);
            }
          }
          return rows.map((row) => ({
            matchID: String(row.match_id),
            status: String(row.status) as MatchStatus,
          }));
        }),
      );
    },

    async serverSecret(name, fresh) {
      await write(() =>
        run('INSERT OR IGNORE INTO server_secrets (name, value) VALUES (?, ?)', [name, fresh]),
      );
      const row = one('SELECT value FROM server_secrets WHERE name = ?', [name]) as Row;
      return String(row.value);
    },

    async putHandover(key, sealed, { expiresAt, now, forgetBefore }) {
      return await write(() => {
        run('DELETE FROM handovers WHERE expires_at <= ?', [forgetBefore]);
        run(`UPDATE handovers SET sealed = '' WHERE expires_at <= ? AND sealed <> ''`, [now]);
        const kept = run(
          'INSERT INTO handovers (key, sealed, expires_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING',
          [key, sealed, expiresAt],
        );
        return kept.changes === 1;
      });
    },

    async tryHandover(key, maxTries) {
      // Read first: a code that names no handover (every wrong guess but a few) writes nothing.
      const found = one('SELECT sealed, expires_at, used_at, tries FROM handovers WHERE key = ?', [
        key,
      ]);
      if (!found) return undefined;
      const counted = await write(() =>
        one(
          `UPDATE handovers SET tries = tries + 1 WHERE key = ? AND tries < ?
           RETURNING sealed, expires_at, used_at, tries`,
          [key, maxTries],
        ),
      );
      return handoverTry(counted ?? found, counted !== undefined);
    },

    async useHandover(key, now) {
      const used = await write(() =>
        run(`UPDATE handovers SET used_at = ?, sealed = '' WHERE key = ? AND used_at IS NULL`, [
          now,
          key,
        ]),
      );
      return used.changes === 1;
    },

    savePushSubscription(sub) {
      return write(() =>
        transaction(db, () => {
          if (!one('SELECT 1 FROM matches WHERE match_id = ?', [sub.matchID])) return false;
          run(
            `INSERT INTO push_subscriptions
               (match_id, seat, endpoint, p256dh, auth, language, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (match_id, seat, endpoint) DO UPDATE SET p256dh = excluded.p256dh,
               auth = excluded.auth, language = excluded.language, created_at = excluded.created_at`,
            [
              sub.matchID,
              sub.seat,
              sub.endpoint,
              sub.p256dh,
              sub.auth,
              sub.language,
              sub.createdAt,
            ],
          );
          run(
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
      const rows = all(
        `SELECT * FROM push_subscriptions WHERE match_id = ? AND (? IS NULL OR seat = ?)
         ORDER BY created_at, endpoint`,
        [matchID, seat ?? null, seat ?? null],
      );
      return rows.map(pushSubscriptionFromRow);
    },

    async removePushSubscription(matchID, seat, endpoint) {
      const { changes } = await write(() =>
        run('DELETE FROM push_subscriptions WHERE match_id = ? AND seat = ? AND endpoint = ?', [
          matchID,
          seat,
          endpoint,
        ]),
      );
      return changes > 0;
    },

    async removePushEndpoint(endpoint) {
      const { changes } = await write(() =>
        run('DELETE FROM push_subscriptions WHERE endpoint = ?', [endpoint]),
      );
      return Number(changes);
    },

    async removeMatchPushSubscriptions(matchID) {
      await write(() => run('DELETE FROM push_subscriptions WHERE match_id = ?', [matchID]));
    },

    async ping() {
      syncs.check();
      one('SELECT 1');
    },

    async close() {
      if (open) {
        open = false;
        commitPendingMoves();
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
