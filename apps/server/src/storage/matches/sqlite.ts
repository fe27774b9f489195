import type { Seat } from '@iron-curtain/game';
import { jsonOrNull } from '../database/columns.ts';
import { MATCH_TABLES } from '../database/match-tables.ts';
import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { deadlineColumns } from './deadlines.ts';
import { upgradeState } from './legacy-state.ts';
import type {
  ClockRecord,
  DueWarning,
  MatchListQuery,
  MatchProgress,
  MatchRecord,
  MatchResult,
  MatchStatus,
  MatchStore,
  RematchState,
  StoredState,
} from './match-store.ts';
import { progressFromColumn, progressOf } from './progress.ts';
import { replayMoves } from './replay.ts';
import { MATCH_COLUMNS, matchFromRows, matchRowValues, moveFromRow } from './rows.ts';
import { sqliteMoveGroups } from './sqlite-move-groups.ts';
import { sqliteFinishRating } from './sqlite-rated-end.ts';

export interface SqliteMatchOptions {
  /**
   * Keep most moves in the log alone (see SNAPSHOT_EVERY): only for moves whose state is the
   * one replaying them gives, as the engine's are. A load replays whatever the file holds.
   */
  snapshots?: boolean;
}

/**
 * Matches in the SQLite file. Moves of one event-loop turn share one commit, and commits made
 * during an fsync the next one (see sqliteMoveGroups).
 */
export function sqliteMatchStore(
  db: SqliteDatabase,
  { snapshots = false }: SqliteMatchOptions = {},
): MatchStore {
  const commit = sqliteMoveGroups(db, snapshots);

  const seatsOf = (matchID: string) =>
    db.all('SELECT * FROM seats WHERE match_id = ? ORDER BY seat', [matchID]);

  const insertMatch = (match: MatchRecord, initial: StoredState) => {
    db.run(
      `INSERT INTO matches (${MATCH_COLUMNS})
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      matchRowValues(match, initial),
    );
    for (const p of match.players) {
      db.run(
        `INSERT INTO seats (match_id, seat, side, name, credentials_hash, account_id)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [match.matchID, p.seat, p.side, p.name, p.credentialsHash, p.accountID ?? null],
      );
    }
    db.run('INSERT INTO states (match_id, state_id, state) VALUES (?, ?, ?)', [
      match.matchID,
      initial._stateID,
      JSON.stringify(initial),
    ]);
  };

  /** The match's state: its snapshot, and the moves logged since replayed. */
  const readState = (matchID: string): StoredState | undefined => {
    const row = db.one(
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
    const since = db
      .all(
        `SELECT state_id, seat, move, args, entries, at FROM moves
       WHERE match_id = ? AND state_id > ? AND state_id <= ? ORDER BY state_id`,
        [matchID, Number(row.snapshot_id), Number(row.state_id)],
      )
      .map(moveFromRow);
    const state = replayMoves(match, snapshot, since);
    if (state._stateID !== Number(row.state_id)) {
      throw new Error(`match ${matchID}: its log replays to state ${state._stateID}`);
    }
    return state;
  };

  /**
   * The progress of a match stored before progress was kept, from its state and last move,
   * kept from then on unless a move has written its own meanwhile. Read and written in one
   * turn of the event loop: no move lands in between.
   */
  const workOutProgress = (matchID: string): Promise<MatchProgress> => {
    const state = readState(matchID);
    if (!state) throw new Error(`match ${matchID} has no state`);
    const last = db.one(
      `SELECT state_id, seat, move, args, entries, at FROM moves WHERE match_id = ?
       ORDER BY state_id DESC LIMIT 1`,
      [matchID],
    );
    const progress = progressOf(state, last ? moveFromRow(last) : null);
    return db.write(() => {
      db.run('UPDATE matches SET progress = ? WHERE match_id = ? AND progress IS NULL', [
        JSON.stringify(progress),
        matchID,
      ]);
      return progress;
    });
  };

  return {
    createMatch(match: MatchRecord, initial: StoredState) {
      return db.write(() => db.transaction(() => insertMatch(match, initial)));
    },

    async getMatch(matchID) {
      const row = db.one('SELECT * FROM matches WHERE match_id = ?', [matchID]);
      return row ? matchFromRows(row, seatsOf(matchID)) : undefined;
    },

    async getMatchProgress(matchID) {
      const row = db.one('SELECT * FROM matches WHERE match_id = ?', [matchID]);
      if (!row) return undefined;
      return {
        match: matchFromRows(row, seatsOf(matchID)),
        progress: progressFromColumn(row.progress) ?? (await workOutProgress(matchID)),
      };
    },

    async listPublicMatches({ status, limit, openOnly = false }: MatchListQuery) {
      const listed = openOnly ? `visibility = 'open'` : `visibility IN ('public', 'open')`;
      const rows =
        status === undefined
          ? db.all(
              `SELECT * FROM matches WHERE ${listed}
               ORDER BY created_at DESC, match_id LIMIT ?`,
              [limit],
            )
          : db.all(
              `SELECT * FROM matches WHERE ${listed} AND status = ?
               ORDER BY created_at DESC, match_id LIMIT ?`,
              [status, limit],
            );
      return rows.map((row) => matchFromRows(row, seatsOf(String(row.match_id))));
    },

    claimSeat(matchID, seat: Seat, name, credentialsHash, at, accountID = null) {
      return db.write(() =>
        db.transaction(() => {
          const claimed = db.run(
            `UPDATE seats SET name = ?, credentials_hash = ?, account_id = ?
           WHERE match_id = ? AND seat = ? AND credentials_hash IS NULL
             AND EXISTS (SELECT 1 FROM matches WHERE match_id = ? AND status = 'waiting')`,
            [name, credentialsHash, accountID, matchID, seat, matchID],
          ).changes;
          if (claimed !== 1) return false;
          if (accountID !== null) {
            db.run(
              `UPDATE matches SET unrated = 'same-account' WHERE match_id = ? AND rated = 1
                 AND (SELECT count(*) FROM seats WHERE match_id = ? AND account_id = ?) = 2`,
              [matchID, matchID, accountID],
            );
          }
          db.run(
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
      return db.write(() =>
        db.transaction(() => {
          const finished =
            db.run(
              `UPDATE matches SET status = 'finished', result = ?, updated_at = ?,
               clock = coalesce(?, clock), deadline = NULL, warn_at = NULL
             WHERE match_id = ? AND status <> 'finished'`,
              [jsonOrNull(result), at, jsonOrNull(clock), matchID],
            ).changes === 1;
          if (finished) sqliteFinishRating(db, matchID, result, at);
          return finished;
        }),
      );
    },

    async loadState(matchID) {
      return readState(matchID);
    },

    commitMove(matchID, expectedStateID, next, move, result, clock?) {
      return commit({ matchID, expectedStateID, next, move, result, clock });
    },

    async readMoves(matchID) {
      const rows = db.all(
        `SELECT state_id, seat, move, args, entries, at FROM moves WHERE match_id = ?
         ORDER BY state_id`,
        [matchID],
      );
      return rows.map(moveFromRow);
    },

    async listRunningClocks() {
      const rows = db.all(
        `SELECT * FROM matches
         WHERE status = 'playing' AND clock IS NOT NULL AND days_per_turn IS NULL`,
      );
      return rows.map((row) => matchFromRows(row, seatsOf(String(row.match_id))));
    },

    async listDueMatches(now, limit) {
      return db
        .all(
          `SELECT match_id FROM matches
         WHERE deadline <= ? AND status = 'playing' ORDER BY deadline LIMIT ?`,
          [now, limit],
        )
        .map((row) => String(row.match_id));
    },

    takeDueWarnings(now, limit) {
      return db.write(() =>
        db.transaction(() => {
          const rows = db.all(
            `SELECT match_id, clock, deadline FROM matches
             WHERE warn_at <= ? AND status = 'playing' ORDER BY warn_at LIMIT ?`,
            [now, limit],
          );
          for (const row of rows) {
            db.run('UPDATE matches SET warn_at = NULL WHERE match_id = ?', [String(row.match_id)]);
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
      await db.write(() =>
        db.run('UPDATE matches SET clock = ?, deadline = ?, warn_at = ? WHERE match_id = ?', [
          jsonOrNull(clock),
          deadline,
          warnAt,
          matchID,
        ]),
      );
    },

    async setAway(matchID, seat: Seat, at: string | null) {
      await db.write(() =>
        db.run(
          `UPDATE seats SET away_since = CASE WHEN ? IS NULL THEN NULL
           ELSE coalesce(away_since, ?) END
         WHERE match_id = ? AND seat = ?`,
          [at, at, matchID, seat],
        ),
      );
    },

    offerRematch(matchID, seat: Seat) {
      return db.write(() =>
        db.transaction(() => {
          const row = db.one('SELECT status, rematch FROM matches WHERE match_id = ?', [matchID]);
          if (row?.status !== 'finished') return undefined;
          const rematch: RematchState =
            row.rematch == null ? { offers: [], matchID: null } : JSON.parse(String(row.rematch));
          if (!rematch.offers.includes(seat)) rematch.offers = [...rematch.offers, seat].sort();
          db.run('UPDATE matches SET rematch = ? WHERE match_id = ?', [
            JSON.stringify(rematch),
            matchID,
          ]);
          return rematch;
        }),
      );
    },

    linkRematch(matchID, rematch: MatchRecord, initial: StoredState) {
      return db.write(() =>
        db.transaction(() => {
          const row = db.one('SELECT rematch FROM matches WHERE match_id = ?', [matchID]);
          const current: RematchState | null =
            row?.rematch == null ? null : JSON.parse(String(row.rematch));
          if (!row || current?.matchID) return false;
          insertMatch(rematch, initial);
          db.run('UPDATE matches SET rematch = ? WHERE match_id = ?', [
            JSON.stringify({ offers: current?.offers ?? [], matchID: rematch.matchID }),
            matchID,
          ]);
          return true;
        }),
      );
    },

    // One process owns the file: no other removal can run meanwhile.
    removeMatches({ unfinishedBefore, finishedBefore, limit }) {
      return db.write(() =>
        db.transaction(() => {
          const rows = db.all(
            `SELECT match_id, status FROM matches
           WHERE (status <> 'finished' AND updated_at < ? AND deadline IS NULL)
              OR (? IS NOT NULL AND status = 'finished' AND updated_at < ?)
           ORDER BY updated_at LIMIT ?`,
            [unfinishedBefore, finishedBefore, finishedBefore, limit],
          );
          for (const row of rows) {
            const matchID = String(row.match_id);
            db.run(`UPDATE matches SET status = 'removing' WHERE match_id = ?`, [matchID]);
            for (const table of MATCH_TABLES) {
              db.run(`DELETE FROM ${table} WHERE match_id = ?`, [matchID]);
            }
          }
          return rows.map((row) => ({
            matchID: String(row.match_id),
            status: String(row.status) as MatchStatus,
          }));
        }),
      );
    },
  };
}
