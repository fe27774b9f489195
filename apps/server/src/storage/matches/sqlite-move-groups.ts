import { jsonOrNull } from '../database/columns.ts';
import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { deadlineColumns } from './deadlines.ts';
import type { MoveWrite, PendingMove } from './move-write.ts';
import { progressColumn } from './progress.ts';
import { sqliteFinishRating } from './sqlite-rated-end.ts';

/** How one move of a group fared: stored or stale (`ok`), or failed. */
type MoveOutcome = { ok: boolean } | { error: unknown };

/**
 * With `snapshots`, a move's whole state is written only when its id is a multiple of this;
 * the other moves are in the log alone, and a load replays at most SNAPSHOT_EVERY - 1 of them.
 * Rewriting the whole state (1.8 kB of JSON) per move was about 30 of the 80 us of CPU a
 * move's write cost.
 */
export const SNAPSHOT_EVERY = 16;

/**
 * Group commit on the SQLite file: the moves that arrive while a group is committed and synced
 * form the next group, one transaction (each commit rewrites whole pages into the WAL, so small
 * groups write the same pages many times). Each move's compare-and-set wins or fails alone
 * (see writeGroup). Callers learn their outcome only once the WAL is synced, so nothing is
 * broadcast before it is on disk. The moves still waiting are written at close.
 */
export function sqliteMoveGroups(
  db: SqliteDatabase,
  snapshots: boolean,
): (write: MoveWrite) => Promise<boolean> {
  /** One move's compare-and-set write, inside the group's transaction; false when stale. */
  const writeMove = (m: PendingMove): boolean => {
    // Every right-hand side reads the row as it was: a move in the log alone keeps the
    // snapshot its load starts from.
    const written = (
      !snapshots || m.next._stateID % SNAPSHOT_EVERY === 0
        ? db.run(
            `UPDATE states SET state_id = ?, state = ?, snapshot_id = NULL
             WHERE match_id = ? AND state_id = ?
               AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'playing')`,
            [m.next._stateID, JSON.stringify(m.next), m.matchID, m.expectedStateID, m.matchID],
          )
        : db.run(
            `UPDATE states SET state_id = ?, snapshot_id = coalesce(snapshot_id, state_id)
             WHERE match_id = ? AND state_id = ?
               AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'playing')`,
            [m.next._stateID, m.matchID, m.expectedStateID, m.matchID],
          )
    ).changes;
    if (written !== 1) return false;
    db.run(
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
    db.run(
      `UPDATE matches SET updated_at = ?, progress = ?, clock = coalesce(?, clock),
         deadline = CASE WHEN ? THEN ? ELSE deadline END,
         warn_at = CASE WHEN ? AND ? IS NOT deadline THEN ? ELSE warn_at END,
         status = CASE WHEN ? IS NULL THEN status ELSE 'finished' END,
         result = coalesce(?, result)
       WHERE match_id = ?`,
      [
        m.move.at,
        progressColumn(m.next, m.move),
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
    // A move that ends a rated match rates it in the group's transaction.
    if (m.result) sqliteFinishRating(db, m.matchID, m.result, m.move.at);
    return true;
  };

  /** One move of a group written alone, under its own savepoint: a failure undoes it only. */
  const writeAlone = (m: PendingMove): MoveOutcome => {
    // Prepared like every statement: exec compiles its SQL anew each time.
    db.run('SAVEPOINT move');
    try {
      const outcome = { ok: writeMove(m) };
      db.run('RELEASE move');
      return outcome;
    } catch (error) {
      db.run('ROLLBACK TO move');
      db.run('RELEASE move');
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
      return db.transaction(() => group.map((m) => ({ ok: writeMove(m) })));
    } catch {
      return db.transaction(() => group.map(writeAlone));
    }
  };

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
      db.syncs.check();
      outcomes = writeGroup(group);
    } catch (error) {
      failGroup(error);
      next();
      return;
    }
    db.syncs
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

  db.beforeClose(commitPendingMoves);

  return (write) =>
    new Promise<boolean>((resolve, reject) => {
      pendingMoves.push({ ...write, resolve, reject });
      scheduleGroup();
    });
}
