import type { Seat } from '@iron-curtain/game';
import type pg from 'pg';
import { jsonOrNull, type Row } from '../database/columns.ts';
import { MATCH_TABLES } from '../database/match-tables.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
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
import { MoveGroups } from './postgres-move-groups.ts';
import { postgresFinishRating } from './postgres-rated-end.ts';
import { progressFromColumn, progressOf } from './progress.ts';
import { MATCH_COLUMNS, matchFromRows, matchRowValues, moveFromRow } from './rows.ts';

/** Matches in the Postgres schema; moves are committed in groups (see MoveGroups). */
export function postgresMatchStore(db: PostgresDatabase): MatchStore {
  const { pool, schema, S } = db;
  const seatsOf = async (q: pg.Pool | pg.PoolClient, ids: string[]) =>
    (await q.query(`SELECT * FROM ${S}.seats WHERE match_id = ANY($1) ORDER BY seat`, [ids]))
      .rows as Row[];
  const withSeats = async (rows: Row[]) => {
    const seats = await seatsOf(
      pool,
      rows.map((r) => String(r.match_id)),
    );
    return rows.map((row) =>
      matchFromRows(
        row,
        seats.filter((s) => s.match_id === row.match_id),
      ),
    );
  };

  const insertMatch = async (c: pg.PoolClient, match: MatchRecord, initial: StoredState) => {
    await c.query(
      `INSERT INTO ${S}.matches (${MATCH_COLUMNS})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
               $19)`,
      matchRowValues(match, initial),
    );
    for (const p of match.players) {
      await c.query(
        `INSERT INTO ${S}.seats (match_id, seat, side, name, credentials_hash, account_id)
         VALUES ($1, $2, $3, $4, $5, $6)`,
        [match.matchID, p.seat, p.side, p.name, p.credentialsHash, p.accountID ?? null],
      );
    }
    await c.query(`INSERT INTO ${S}.states (match_id, state_id, state) VALUES ($1, $2, $3)`, [
      match.matchID,
      initial._stateID,
      JSON.stringify(initial),
    ]);
  };

  /** A match's row with its seats (`seats`): read on every move, prepared once per connection. */
  const matchRow = async (matchID: string): Promise<Row | undefined> => {
    const { rows } = await pool.query({
      name: `${schema}:get-match`,
      text: `SELECT m.*, (SELECT json_agg(s) FROM ${S}.seats s WHERE s.match_id = m.match_id) AS seats
             FROM ${S}.matches m WHERE m.match_id = $1`,
      values: [matchID],
    });
    return rows[0] as Row | undefined;
  };

  /**
   * The progress of a match stored before progress was kept, from its state and last move (read
   * together), kept from then on unless a move has written its own meanwhile (every move
   * writes its own, with the match's row locked).
   */
  const workOutProgress = async (matchID: string): Promise<MatchProgress> => {
    const { rows } = await pool.query(
      `SELECT s.state, m.deck, m.setup_data, v.state_id, v.seat, v.move, v.args, v.entries, v.at
       FROM ${S}.states s JOIN ${S}.matches m USING (match_id)
       LEFT JOIN LATERAL (SELECT * FROM ${S}.moves WHERE match_id = s.match_id
                          ORDER BY state_id DESC LIMIT 1) v ON true
       WHERE s.match_id = $1`,
      [matchID],
    );
    const row = rows[0] as Row | undefined;
    if (!row) throw new Error(`match ${matchID} has no state`);
    const state = upgradeState(row.state as StoredState, {
      deck: row.deck as MatchRecord['deck'],
      setupData: row.setup_data,
    });
    const progress = progressOf(state, row.state_id == null ? null : moveFromRow(row));
    await pool.query(
      `UPDATE ${S}.matches SET progress = $1 WHERE match_id = $2 AND progress IS NULL`,
      [JSON.stringify(progress), matchID],
    );
    return progress;
  };

  const moveGroups = new MoveGroups(db);
  db.beforeClose(() => moveGroups.settled());

  return {
    async createMatch(match: MatchRecord, initial: StoredState) {
      await db.inTransaction((c) => insertMatch(c, match, initial));
    },

    async getMatch(matchID) {
      const row = await matchRow(matchID);
      return row && matchFromRows(row, row.seats as Row[]);
    },

    async getMatchProgress(matchID) {
      const row = await matchRow(matchID);
      if (!row) return undefined;
      return {
        match: matchFromRows(row, row.seats as Row[]),
        progress: progressFromColumn(row.progress) ?? (await workOutProgress(matchID)),
      };
    },

    async listPublicMatches({ status, limit, openOnly = false }: MatchListQuery) {
      const listed = openOnly ? `visibility = 'open'` : `visibility IN ('public', 'open')`;
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.matches
         WHERE ${listed} AND ($1::text IS NULL OR status = $1)
         ORDER BY created_at DESC, match_id LIMIT $2`,
        [status ?? null, limit],
      );
      return withSeats(rows);
    },

    async claimSeat(matchID, seat: Seat, name, credentialsHash, at, accountID = null) {
      return db.inTransaction(async (c) => {
        // Lock the match row so the 'playing' switch sees the other seat's latest claim.
        const match = await c.query(
          `SELECT status FROM ${S}.matches WHERE match_id = $1 FOR UPDATE`,
          [matchID],
        );
        if (match.rows[0]?.status !== 'waiting') return false;
        const claimed = await c.query(
          `UPDATE ${S}.seats SET name = $1, credentials_hash = $2, account_id = $5
           WHERE match_id = $3 AND seat = $4 AND credentials_hash IS NULL`,
          [name, credentialsHash, matchID, seat, accountID],
        );
        if (claimed.rowCount !== 1) return false;
        if (accountID !== null) {
          await c.query(
            `UPDATE ${S}.matches SET unrated = 'same-account' WHERE match_id = $1 AND rated
               AND (SELECT count(*) FROM ${S}.seats WHERE match_id = $1 AND account_id = $2) = 2`,
            [matchID, accountID],
          );
        }
        await c.query(
          `UPDATE ${S}.matches SET updated_at = $1,
             status = CASE WHEN (SELECT count(*) FROM ${S}.seats
                                 WHERE match_id = $2 AND credentials_hash IS NULL) = 0
                      THEN 'playing' ELSE status END
           WHERE match_id = $2`,
          [at, matchID],
        );
        return true;
      });
    },

    async finishMatch(matchID, result: MatchResult | null, at, clock?: ClockRecord) {
      return db.inTransaction(async (c) => {
        const { rowCount } = await c.query(
          `UPDATE ${S}.matches SET status = 'finished', result = $1, updated_at = $2,
             clock = coalesce($4::json, clock), deadline = NULL, warn_at = NULL
           WHERE match_id = $3 AND status <> 'finished'`,
          [jsonOrNull(result), at, matchID, jsonOrNull(clock)],
        );
        if (rowCount !== 1) return false;
        await postgresFinishRating(c, S, matchID, result, at);
        return true;
      });
    },

    async loadState(matchID) {
      const { rows } = await pool.query({
        name: `${schema}:load-state`,
        text: `SELECT s.state, m.deck, m.setup_data FROM ${S}.states s
               JOIN ${S}.matches m USING (match_id) WHERE match_id = $1`,
        values: [matchID],
      });
      const row = rows[0];
      return (
        row && upgradeState(row.state as StoredState, { deck: row.deck, setupData: row.setup_data })
      );
    },

    commitMove(matchID, expectedStateID, next, move, result, clock?) {
      return moveGroups.commit({ matchID, expectedStateID, next, move, result, clock });
    },

    async readMoves(matchID) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.moves WHERE match_id = $1 ORDER BY state_id`,
        [matchID],
      );
      return rows.map(moveFromRow);
    },

    async listRunningClocks() {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.matches
         WHERE status = 'playing' AND clock IS NOT NULL AND days_per_turn IS NULL`,
      );
      return withSeats(rows);
    },

    async listDueMatches(now, limit) {
      const { rows } = await pool.query(
        `SELECT match_id FROM ${S}.matches
         WHERE deadline <= $1 AND status = 'playing' ORDER BY deadline LIMIT $2`,
        [now, limit],
      );
      return rows.map((row) => String(row.match_id));
    },

    async takeDueWarnings(now, limit) {
      // Skipping rows another instance is taking: each warning goes out once.
      const { rows } = await pool.query(
        `UPDATE ${S}.matches m SET warn_at = NULL
         FROM (SELECT match_id FROM ${S}.matches
               WHERE warn_at <= $1 AND status = 'playing'
               ORDER BY warn_at LIMIT $2 FOR UPDATE SKIP LOCKED) due
         WHERE m.match_id = due.match_id
         RETURNING m.match_id, m.clock, m.deadline`,
        [now, limit],
      );
      return rows.flatMap((row): DueWarning[] => {
        const seat = (row.clock as ClockRecord | null)?.running;
        return seat && row.deadline
          ? [
              {
                matchID: String(row.match_id),
                seat,
                deadline: (row.deadline as Date).toISOString(),
              },
            ]
          : [];
      });
    },

    async inSweepTurn(work) {
      // A session lock, held while the sweep runs outside any transaction: a killed
      // instance's connection closes, and with it its turn.
      const client = await pool.connect();
      try {
        const lock = await client.query('SELECT pg_try_advisory_lock(hashtext($1)) AS got', [
          `iron-curtain-deadlines:${schema}`,
        ]);
        if (lock.rows[0]?.got !== true) return null;
        try {
          return await work();
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [
            `iron-curtain-deadlines:${schema}`,
          ]);
        }
      } finally {
        client.release();
      }
    },

    async setClock(matchID, clock: ClockRecord) {
      const { deadline, warnAt } = deadlineColumns(clock);
      await pool.query(
        `UPDATE ${S}.matches SET clock = $1, deadline = $3, warn_at = $4 WHERE match_id = $2`,
        [jsonOrNull(clock), matchID, deadline, warnAt],
      );
    },

    async setAway(matchID, seat: Seat, at: string | null) {
      await pool.query(
        `UPDATE ${S}.seats SET away_since = CASE WHEN $1::timestamptz IS NULL THEN NULL
           ELSE coalesce(away_since, $1::timestamptz) END
         WHERE match_id = $2 AND seat = $3`,
        [at, matchID, seat],
      );
    },

    async offerRematch(matchID, seat: Seat) {
      return db.inTransaction(async (c) => {
        const { rows } = await c.query(
          `SELECT status, rematch FROM ${S}.matches WHERE match_id = $1 FOR UPDATE`,
          [matchID],
        );
        const row = rows[0] as Row | undefined;
        if (row?.status !== 'finished') return undefined;
        const rematch: RematchState = (row.rematch as RematchState | null) ?? {
          offers: [],
          matchID: null,
        };
        if (!rematch.offers.includes(seat)) rematch.offers = [...rematch.offers, seat].sort();
        await c.query(`UPDATE ${S}.matches SET rematch = $1 WHERE match_id = $2`, [
          JSON.stringify(rematch),
          matchID,
        ]);
        return rematch;
      });
    },

    async linkRematch(matchID, rematch: MatchRecord, initial: StoredState) {
      return db.inTransaction(async (c) => {
        const { rows } = await c.query(
          `SELECT rematch FROM ${S}.matches WHERE match_id = $1 FOR UPDATE`,
          [matchID],
        );
        const row = rows[0] as Row | undefined;
        const current = (row?.rematch as RematchState | null | undefined) ?? null;
        if (!row || current?.matchID) return false;
        await insertMatch(c, rematch, initial);
        await c.query(`UPDATE ${S}.matches SET rematch = $1 WHERE match_id = $2`, [
          JSON.stringify({ offers: current?.offers ?? [], matchID: rematch.matchID }),
          matchID,
        ]);
        return true;
      });
    },

    async removeMatches({ unfinishedBefore, finishedBefore, limit }) {
      return db.inTransaction(async (c) => {
        // One removal at a time across the instances: the others skip this round.
        const lock = await c.query('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS got', [
          `iron-curtain-removal:${schema}`,
        ]);
        if (lock.rows[0]?.got !== true) return null;
        await c.query(`SELECT set_config('iron_curtain.removing_matches', 'on', true)`);
        // Locked: a move or a join waiting on a removed match finds nothing to write.
        const { rows } = await c.query(
          `SELECT match_id, status FROM ${S}.matches
           WHERE (status <> 'finished' AND updated_at < $1 AND deadline IS NULL)
              OR ($2::timestamptz IS NOT NULL AND status = 'finished' AND updated_at < $2)
           ORDER BY updated_at LIMIT $3 FOR UPDATE`,
          [unfinishedBefore, finishedBefore, limit],
        );
        const ids = rows.map((r) => String(r.match_id));
        if (ids.length === 0) return [];
        for (const table of MATCH_TABLES) {
          await c.query(`DELETE FROM ${S}.${table} WHERE match_id = ANY($1)`, [ids]);
        }
        return rows.map((r) => ({ matchID: String(r.match_id), status: r.status as MatchStatus }));
      });
    },
  };
}
