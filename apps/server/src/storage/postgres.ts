import type { Seat } from '@iron-curtain/game';
import { PUSH_SUBSCRIPTIONS_PER_SEAT } from '@iron-curtain/protocol';
import pg from 'pg';
import { deadlineColumns } from './deadlines.ts';
import { upgradeState } from './legacy-state.ts';
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

type Row = Record<string, unknown>;

/** Postgres's SQLSTATE for a row whose foreign key names no row. */
const FOREIGN_KEY_VIOLATION = '23503';

/** Schema migrations, in order; `S` stands for the quoted schema name. */
const MIGRATIONS: ((S: string) => string)[] = [
  (S) => `
   CREATE TABLE ${S}.matches (
     match_id text PRIMARY KEY,
     visibility text NOT NULL,
     status text NOT NULL,
     variants json NOT NULL,
     deck json NOT NULL,
     setup_data json NOT NULL,
     seed text NOT NULL,
     invite_hash text NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     result json
   );
   CREATE INDEX matches_listing ON ${S}.matches (visibility, status, created_at);
   CREATE TABLE ${S}.seats (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     seat text NOT NULL,
     side text NOT NULL,
     name text,
     credentials_hash text,
     PRIMARY KEY (match_id, seat)
   );
   CREATE TABLE ${S}.states (
     match_id text PRIMARY KEY REFERENCES ${S}.matches (match_id),
     state_id integer NOT NULL,
     state json NOT NULL
   );
   CREATE TABLE ${S}.moves (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     state_id integer NOT NULL,
     seat text NOT NULL,
     move text NOT NULL,
     args json NOT NULL,
     entries json NOT NULL,
     at timestamptz NOT NULL,
     PRIMARY KEY (match_id, state_id)
   );
   CREATE FUNCTION ${S}.moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'the move log is append-only'; END $$;
   CREATE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON ${S}.moves
     FOR EACH STATEMENT EXECUTE FUNCTION ${S}.moves_append_only();`,
  // Turn clock, rematch links, seats' absence (abandonment), uploaded decks.
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN clock json;
   ALTER TABLE ${S}.matches ADD COLUMN rematch json;
   ALTER TABLE ${S}.matches ADD COLUMN rematch_of text;
   ALTER TABLE ${S}.seats ADD COLUMN away_since timestamptz;
   CREATE TABLE ${S}.decks (
     hash text PRIMARY KEY,
     info json NOT NULL,
     file json NOT NULL,
     created_at timestamptz NOT NULL
   );`,
  // Secrets of the server itself (the key of computer players' credentials).
  (S) => `
   CREATE TABLE ${S}.server_secrets (
     name text PRIMARY KEY,
     value text NOT NULL
   );`,
  // Match chat (the creator's switch, each seat's mute), and removing old matches: the move
  // log stays append-only except inside a removal's transaction (removing_matches set).
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN chat_off boolean NOT NULL DEFAULT false;
   ALTER TABLE ${S}.seats ADD COLUMN muting_opponent boolean NOT NULL DEFAULT false;
   CREATE TABLE ${S}.chat_lines (
     id bigserial PRIMARY KEY,
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     room text NOT NULL,
     seat text,
     phrase text,
     text text,
     at timestamptz NOT NULL
   );
   CREATE INDEX chat_lines_match ON ${S}.chat_lines (match_id, id);
   CREATE INDEX matches_age ON ${S}.matches (status, updated_at);
   CREATE OR REPLACE FUNCTION ${S}.moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' AND current_setting('iron_curtain.removing_matches', true) = 'on' THEN
         RETURN NULL;
       END IF;
       RAISE EXCEPTION 'the move log is append-only';
     END $$;`,
  // Seats handed over to another browser with a one-time code, kept sealed for minutes.
  (S) => `
   CREATE TABLE ${S}.handovers (
     key text PRIMARY KEY,
     sealed text NOT NULL,
     expires_at timestamptz NOT NULL
   );`,
  // Browsers a seat asked to be told by Web Push when it is its turn.
  (S) => `
   CREATE TABLE ${S}.push_subscriptions (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     seat text NOT NULL,
     endpoint text NOT NULL,
     p256dh text NOT NULL,
     auth text NOT NULL,
     language text NOT NULL,
     created_at timestamptz NOT NULL,
     PRIMARY KEY (match_id, seat, endpoint)
   );
   CREATE INDEX push_subscriptions_endpoint ON ${S}.push_subscriptions (endpoint);`,
  // Correspondence play (days per turn), and every running turn's deadline and warning kept
  // with its match, indexed, for the deadline sweep.
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN days_per_turn integer;
   ALTER TABLE ${S}.matches ADD COLUMN deadline timestamptz;
   ALTER TABLE ${S}.matches ADD COLUMN warn_at timestamptz;
   CREATE INDEX matches_deadline ON ${S}.matches (deadline) WHERE deadline IS NOT NULL;
   CREATE INDEX matches_warn_at ON ${S}.matches (warn_at) WHERE warn_at IS NOT NULL;`,
  // Handovers: found by their code's locator, each counting the tries at it, and kept (used
  // or not) past its expiry. Codes made before were keyed otherwise and open nothing now.
  (S) => `
   DELETE FROM ${S}.handovers;
   ALTER TABLE ${S}.handovers ADD COLUMN tries integer NOT NULL DEFAULT 0;
   ALTER TABLE ${S}.handovers ADD COLUMN used_at timestamptz;`,
];

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

/** A move to store: what `commitMove` was given. */
interface MoveWrite {
  matchID: string;
  expectedStateID: number;
  next: StoredState;
  move: MoveRecord;
  result: MatchResult | null;
  clock: ClockRecord | undefined;
}

interface PendingMove extends MoveWrite {
  resolve: (written: boolean) => void;
  reject: (error: unknown) => void;
}

/** How many group statements may run at once; the moves that arrive meanwhile wait for one. */
const GROUPS_IN_FLIGHT = 2;

/**
 * Group commit: every COMMIT waits for the write-ahead log to reach the disk, so one
 * transaction per move caps a server at the disk's flushes per second. The moves that arrive
 * while a group is being stored share the next group: one statement, one transaction, one
 * flush. Each move is still a compare-and-set of its own (a stale one is not written and the
 * others are), and its caller learns the outcome only after the COMMIT, so nothing is
 * broadcast before it is on disk. When a group's statement fails, each of its moves is tried
 * alone, so one bad move cannot fail the others.
 */
class MoveGroups {
  private gathering: PendingMove[] = [];
  private inFlight = 0;
  private flushQueued = false;
  private idle: (() => void)[] = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly S: string,
  ) {}

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

  private async store(group: PendingMove[]): Promise<void> {
    let written: Set<number>;
    try {
      written = await this.writeGroup(group);
    } catch {
      await Promise.all(group.map((m) => this.storeAlone(m)));
      return;
    }
    for (const [i, m] of group.entries()) m.resolve(written.has(i));
  }

  private async storeAlone(m: PendingMove): Promise<void> {
    try {
      m.resolve((await this.writeGroup([m])).has(0));
    } catch (error) {
      m.reject(error);
    }
  }

  /** Stores the group in one statement; answers the indexes of the moves written. */
  private async writeGroup(group: MoveWrite[]): Promise<Set<number>> {
    const S = this.S;
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
      ...(m.clock ? deadlineColumns(m.clock) : { deadline: null, warnAt: null }),
    }));
    // Matches are locked in one order (by id), so two groups never wait on each other.
    const { rows: written } = await this.pool.query({
      name: `${this.S}:commit-moves`,
      text: `WITH batch AS (
         SELECT * FROM json_to_recordset($1::json) AS b(
           i integer, match_id text, expected integer, state_id integer, state json,
           move_state_id integer, seat text, move text, args json, entries json,
           at timestamptz, result json, clock json, deadline timestamptz,
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

/** The Postgres store (DATABASE_URL): tables in DATABASE_SCHEMA, created or migrated on start. */
export async function openPostgresStore(url: string, schema: string): Promise<Store> {
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
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      matchRowValues(match),
    );
    for (const p of match.players) {
      await c.query(
        `INSERT INTO ${S}.seats (match_id, seat, side, name, credentials_hash)
         VALUES ($1, $2, $3, $4, $5)`,
        [match.matchID, p.seat, p.side, p.name, p.credentialsHash],
      );
    }
    await c.query(`INSERT INTO ${S}.states (match_id, state_id, state) VALUES ($1, $2, $3)`, [
      match.matchID,
      initial._stateID,
      JSON.stringify(initial),
    ]);
  };

  const moveGroups = new MoveGroups(pool, S);

  return {
    kind: 'postgres',

    async createMatch(match: MatchRecord, initial: StoredState) {
      await inTransaction(pool, (c) => insertMatch(c, match, initial));
    },

    async getMatch(matchID) {
      // Read on every move: one round trip with its seats, prepared once per connection.
      const { rows } = await pool.query({
        name: `${schema}:get-match`,
        text: `SELECT m.*, (SELECT json_agg(s) FROM ${S}.seats s WHERE s.match_id = m.match_id) AS seats
               FROM ${S}.matches m WHERE m.match_id = $1`,
        values: [matchID],
      });
      const row = rows[0] as Row | undefined;
      return row && matchFromRows(row, row.seats as Row[]);
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

    async claimSeat(matchID, seat: Seat, name, credentialsHash, at) {
      return inTransaction(pool, async (c) => {
        // Lock the match row so the 'playing' switch sees the other seat's latest claim.
        const match = await c.query(
          `SELECT status FROM ${S}.matches WHERE match_id = $1 FOR UPDATE`,
          [matchID],
        );
        if (match.rows[0]?.status !== 'waiting') return false;
        const claimed = await c.query(
          `UPDATE ${S}.seats SET name = $1, credentials_hash = $2
           WHERE match_id = $3 AND seat = $4 AND credentials_hash IS NULL`,
          [name, credentialsHash, matchID, seat],
        );
        if (claimed.rowCount !== 1) return false;
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
      const { rowCount } = await pool.query(
        `UPDATE ${S}.matches SET status = 'finished', result = $1, updated_at = $2,
           clock = coalesce($4::json, clock), deadline = NULL, warn_at = NULL
         WHERE match_id = $3 AND status <> 'finished'`,
        [jsonOrNull(result), at, matchID, jsonOrNull(clock)],
      );
      return rowCount === 1;
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

    commitMove(matchID, expectedStateID, next, move: MoveRecord, result, clock?) {
      return moveGroups.commit({ matchID, expectedStateID, next, move, result, clock });
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
      return inTransaction(pool, async (c) => {
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
      return inTransaction(pool, async (c) => {
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

    async saveDeck(deck: StoredDeck) {
      const { rowCount } = await pool.query(
        `INSERT INTO ${S}.decks (hash, info, file, created_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (hash) DO NOTHING`,
        [deck.info.hash, JSON.stringify(deck.info), JSON.stringify(deck.file), deck.createdAt],
      );
      return rowCount === 1;
    },

    async getDeck(hash) {
      const { rows } = await pool.query(`SELECT * FROM ${S}.decks WHERE hash = $1`, [hash]);
      return rows[0] ? deckFromRow(rows[0] as Row) : undefined;
    },

    async listDecks() {
      const { rows } = await pool.query(`SELECT * FROM ${S}.decks ORDER BY created_at, hash`);
      return (rows as Row[]).map(deckFromRow);
    },

    async readMoves(matchID) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.moves WHERE match_id = $1 ORDER BY state_id`,
        [matchID],
      );
      return rows.map(moveFromRow);
    },

    async addChatLine(line) {
      const { rows } = await pool.query(
        `INSERT INTO ${S}.chat_lines (match_id, room, seat, phrase, text, at)
         SELECT match_id, $2, $3, $4, $5, $6 FROM ${S}.matches WHERE match_id = $1
         RETURNING id`,
        [line.matchID, line.room, line.seat, line.phrase ?? null, line.text ?? null, line.at],
      );
      if (!rows[0]) return undefined;
      await pool.query(
        `DELETE FROM ${S}.chat_lines WHERE match_id = $1 AND room = $2 AND id <= (
           SELECT id FROM ${S}.chat_lines WHERE match_id = $1 AND room = $2
           ORDER BY id DESC OFFSET $3 LIMIT 1)`,
        [line.matchID, line.room, CHAT_LINES_KEPT],
      );
      return { ...line, id: Number(rows[0].id) };
    },

    async readChat(matchID) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.chat_lines WHERE match_id = $1 ORDER BY id`,
        [matchID],
      );
      return (rows as Row[]).map(chatFromRow);
    },

    async setChatOff(matchID, off) {
      await pool.query(`UPDATE ${S}.matches SET chat_off = $1 WHERE match_id = $2`, [off, matchID]);
    },

    async setMuting(matchID, seat: Seat, muting) {
      await pool.query(
        `UPDATE ${S}.seats SET muting_opponent = $1 WHERE match_id = $2 AND seat = $3`,
        [muting, matchID, seat],
      );
    },

    async removeMatches({ unfinishedBefore, finishedBefore, limit }) {
      return inTransaction(pool, async (c) => {
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
        for (const table of [
          'push_subscriptions',
          'chat_lines',
          'moves',
          'states',
          'seats',
          'matches',
        ]) {
          await c.query(`DELETE FROM ${S}.${table} WHERE match_id = ANY($1)`, [ids]);
        }
        return rows.map((r) => ({ matchID: String(r.match_id), status: r.status as MatchStatus }));
      });
    },

    async serverSecret(name, fresh) {
      // Instances starting together race to store theirs: one wins, all read the winner.
      await pool.query(
        `INSERT INTO ${S}.server_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
        [name, fresh],
      );
      const { rows } = await pool.query(`SELECT value FROM ${S}.server_secrets WHERE name = $1`, [
        name,
      ]);
      return String((rows[0] as Row).value);
    },

    async putHandover(key, sealed, { expiresAt, now, forgetBefore }) {
      await pool.query(`DELETE FROM ${S}.handovers WHERE expires_at <= $1`, [forgetBefore]);
      await pool.query(
        `UPDATE ${S}.handovers SET sealed = '' WHERE expires_at <= $1 AND sealed <> ''`,
        [now],
      );
      const { rowCount } = await pool.query(
        `INSERT INTO ${S}.handovers (key, sealed, expires_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO NOTHING`,
        [key, sealed, expiresAt],
      );
      return rowCount === 1;
    },

    async tryHandover(key, maxTries) {
      // One UPDATE counts the try: of tries on several instances at once, at most maxTries count.
      const counted = await pool.query(
        `UPDATE ${S}.handovers SET tries = tries + 1 WHERE key = $1 AND tries < $2
         RETURNING sealed, expires_at, used_at, tries`,
        [key, maxTries],
      );
      if (counted.rows[0]) return handoverTry(counted.rows[0] as Row, true);
      const found = await pool.query(
        `SELECT sealed, expires_at, used_at, tries FROM ${S}.handovers WHERE key = $1`,
        [key],
      );
      return found.rows[0] ? handoverTry(found.rows[0] as Row, false) : undefined;
    },

    async useHandover(key, now) {
      const { rowCount } = await pool.query(
        `UPDATE ${S}.handovers SET used_at = $2, sealed = '' WHERE key = $1 AND used_at IS NULL`,
        [key, now],
      );
      return rowCount === 1;
    },

    async savePushSubscription(sub) {
      try {
        return await inTransaction(pool, async (c) => {
          const { rowCount } = await c.query(
            `INSERT INTO ${S}.push_subscriptions
               (match_id, seat, endpoint, p256dh, auth, language, created_at)
             SELECT match_id, $2, $3, $4, $5, $6, $7 FROM ${S}.matches WHERE match_id = $1
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
          if (rowCount !== 1) return false;
          await c.query(
            `DELETE FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2 AND endpoint NOT IN (
               SELECT endpoint FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2
               ORDER BY created_at DESC, endpoint LIMIT $3)`,
            [sub.matchID, sub.seat, PUSH_SUBSCRIPTIONS_PER_SEAT],
          );
          return true;
        });
      } catch (error) {
        // The match was removed between the SELECT and the foreign key's check.
        if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return false;
        throw error;
      }
    },

    async listPushSubscriptions(matchID, seat) {
      const { rows } = await pool.query(
        `SELECT * FROM ${S}.push_subscriptions WHERE match_id = $1 AND ($2::text IS NULL OR seat = $2)
         ORDER BY created_at, endpoint`,
        [matchID, seat ?? null],
      );
      return (rows as Row[]).map(pushSubscriptionFromRow);
    },

    async removePushSubscription(matchID, seat, endpoint) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${S}.push_subscriptions WHERE match_id = $1 AND seat = $2 AND endpoint = $3`,
        [matchID, seat, endpoint],
      );
      return (rowCount ?? 0) > 0;
    },

    async removePushEndpoint(endpoint) {
      const { rowCount } = await pool.query(
        `DELETE FROM ${S}.push_subscriptions WHERE endpoint = $1`,
        [endpoint],
      );
      return rowCount ?? 0;
    },

    async removeMatchPushSubscriptions(matchID) {
      await pool.query(`DELETE FROM ${S}.push_subscriptions WHERE match_id = $1`, [matchID]);
    },

    async ping() {
      await pool.query('SELECT 1');
    },

    async close() {
      await moveGroups.settled();
      await pool.end();
    },
  };
}
