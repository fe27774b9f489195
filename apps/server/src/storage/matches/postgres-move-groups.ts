import type pg from 'pg';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import { deadlineColumns } from './deadlines.ts';
import type { MoveWrite, PendingMove } from './move-write.ts';
import { postgresFinishRating } from './postgres-rated-end.ts';
import { progressOf } from './progress.ts';

/** How many group statements may run at once; the moves that arrive meanwhile wait for one. */
const GROUPS_IN_FLIGHT = 2;

/**
 * Group commit: every COMMIT waits for the write-ahead log to reach the disk, so one
 * transaction per move caps a server at the disk's flushes per second. The moves that arrive
 * while a group is being stored share the next group: one statement, one transaction, one
 * flush. Each move is still a compare-and-set of its own (a stale one is not written and the
 * others are), and its caller learns the outcome only after the COMMIT, so nothing is
 * broadcast before it is on disk. When a group's statement fails, each of its moves is tried
 * alone, so one bad move cannot fail the others. A move that ends its match is stored in a
 * transaction of its own, which also rates the match (once a match, so rare).
 */
export class MoveGroups {
  private gathering: PendingMove[] = [];
  private inFlight = 0;
  private flushQueued = false;
  private idle: (() => void)[] = [];

  constructor(private readonly db: PostgresDatabase) {}

  commit(write: MoveWrite): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      this.gathering.push({ ...write, resolve, reject });
      this.queueFlush();
    });
  }

  /** Resolves once every move handed in so far has its outcome. */
  settled(): Promise<void> {
    if (this.inFlight === 0 && this.gathering.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private queueFlush(): void {
    if (this.flushQueued || this.inFlight >= GROUPS_IN_FLIGHT || this.gathering.length === 0) {
      return;
    }
    // The moves of one event-loop turn go together.
    this.flushQueued = true;
    setImmediate(() => {
      this.flushQueued = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight >= GROUPS_IN_FLIGHT || this.gathering.length === 0) return;
    const group = this.gathering;
    this.gathering = [];
    this.inFlight++;
    void this.store(group).finally(() => {
      this.inFlight--;
      this.queueFlush();
      if (this.inFlight === 0 && this.gathering.length === 0) {
        for (const resolve of this.idle.splice(0)) resolve();
      }
    });
  }

  private async store(all: PendingMove[]): Promise<void> {
    const group = all.filter((m) => m.result === null);
    const endings = all.filter((m) => m.result !== null);
    await Promise.all([...endings.map((m) => this.storeEnding(m)), this.storeGroup(group)]);
  }

  private async storeGroup(group: PendingMove[]): Promise<void> {
    if (group.length === 0) return;
    let written: Set<number>;
    try {
      written = await this.writeGroup(group);
    } catch {
      await Promise.all(group.map((m) => this.storeAlone(m)));
      return;
    }
    for (const [i, m] of group.entries()) m.resolve(written.has(i));
  }

  /** A move that ends its match, and the match's rating, in one transaction. */
  private async storeEnding(m: PendingMove): Promise<void> {
    try {
      m.resolve(
        await this.db.inTransaction(async (c) => {
          if (!(await this.writeGroup([m], c)).has(0)) return false;
          await postgresFinishRating(c, this.db.S, m.matchID, m.result, m.move.at);
          return true;
        }),
      );
    } catch (error) {
      m.reject(error);
    }
  }

  private async storeAlone(m: PendingMove): Promise<void> {
    try {
      m.resolve((await this.writeGroup([m])).has(0));
    } catch (error) {
      m.reject(error);
    }
  }

  /** Stores the group in one statement; answers the indexes of the moves written. */
  private async writeGroup(
    group: MoveWrite[],
    on: pg.Pool | pg.PoolClient = this.db.pool,
  ): Promise<Set<number>> {
    const { S } = this.db;
    const rows = group.map((m, i) => ({
      i,
      match_id: m.matchID,
      expected: m.expectedStateID,
      state_id: m.next._stateID,
      state: m.next,
      move_state_id: m.move.stateID,
      seat: m.move.seat,
      move: m.move.move,
      args: m.move.args,
      entries: m.move.entries,
      at: m.move.at,
      result: m.result,
      clock: m.clock ?? null,
      progress: progressOf(m.next, m.move),
      ...(m.clock ? deadlineColumns(m.clock) : { deadline: null, warnAt: null }),
    }));
    // Matches are locked in one order (by id), so two groups never wait on each other.
    const { rows: written } = await on.query({
      name: `${S}:commit-moves`,
      text: `WITH batch AS (
         SELECT * FROM json_to_recordset($1::json) AS b(
           i integer, match_id text, expected integer, state_id integer, state json,
           move_state_id integer, seat text, move text, args json, entries json,
           at timestamptz, result json, clock json, progress json, deadline timestamptz,
           "warnAt" timestamptz)
       ), playing AS (
         SELECT match_id FROM ${S}.matches
         WHERE match_id IN (SELECT match_id FROM batch) AND status = 'playing'
         ORDER BY match_id FOR UPDATE
       ), written AS (
         UPDATE ${S}.states s SET state_id = b.state_id, state = b.state
         FROM batch b
         WHERE s.match_id = b.match_id AND s.state_id = b.expected
           AND s.match_id IN (SELECT match_id FROM playing)
         RETURNING b.i
       ), logged AS (
         INSERT INTO ${S}.moves (match_id, state_id, seat, move, args, entries, at)
         SELECT match_id, move_state_id, seat, move, args, entries, at FROM batch
         WHERE i IN (SELECT i FROM written)
       ), touched AS (
         UPDATE ${S}.matches m
         SET updated_at = b.at,
             progress = b.progress,
             status = CASE WHEN b.result IS NULL THEN m.status ELSE 'finished' END,
             result = COALESCE(b.result, m.result),
             clock = COALESCE(b.clock, m.clock),
             deadline = CASE WHEN b.clock IS NULL THEN m.deadline ELSE b.deadline END,
             -- The same seat deciding again keeps its turn's deadline, and its warning.
             warn_at = CASE WHEN b.clock IS NULL OR b.deadline IS NOT DISTINCT FROM m.deadline
                       THEN m.warn_at ELSE b."warnAt" END
         FROM batch b
         WHERE m.match_id = b.match_id AND b.i IN (SELECT i FROM written)
       )
       SELECT i FROM written`,
      values: [JSON.stringify(rows)],
    });
    return new Set(written.map((row) => Number(row.i)));
  }
}
