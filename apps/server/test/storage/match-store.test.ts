import { DatabaseSync } from 'node:sqlite';
import type { LogEntry, Seat, State } from '@iron-curtain/game';
import pg from 'pg';
import { expect, it } from 'vitest';
import { hashSecret } from '../../src/ops/secrets.ts';
import { SQLITE_FILE } from '../../src/storage/database/sqlite-database.ts';
import type { MoveRecord, StoredState } from '../../src/storage/index.ts';
import { openTestStores, POSTGRES_URL } from '../support.ts';
import { type Backend, describeContract, newRecord, successor } from './contract.ts';

/** A successor of `state` that awaits `deciding`'s decision, its move logging `entries`. */
function movedTo(
  state: StoredState,
  deciding: Seat | null,
  entries: LogEntry[],
): { next: StoredState; move: MoveRecord } {
  const { next, move } = successor(state, state._stateID + 1);
  (next.G as State).decision =
    deciding === null ? null : { kind: 'chooseFirstPlayer', seat: deciding };
  return { next, move: { ...move, seat: state._stateID % 2 === 0 ? '0' : '1', entries } };
}

/** What the store keeps of a move as a match's last. */
const lastOf = ({ stateID, seat, entries, at }: MoveRecord) => ({ stateID, seat, entries, at });

/**
 * Takes the store's rows back to before their match progress was kept: the column the migration
 * added is empty in every row written before it, so emptying it is that state, whatever
 * migrations come after. The stores are closed meanwhile and opened again afterwards.
 */
async function beforeProgressWasKept(backend: Backend): Promise<void> {
  if (backend.kind === 'sqlite') {
    await backend.stores().close();
    const db = new DatabaseSync(`${backend.where}/${SQLITE_FILE}`);
    db.exec('UPDATE matches SET progress = NULL');
    db.close();
    await backend.reopen(true);
    return;
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  await client.query(`UPDATE "${backend.where}".matches SET progress = NULL`);
  await client.end();
  await backend.reopen();
}

/** The progress column of a match as stored (read with the SQLite stores closed). */
async function storedProgress(backend: Backend, matchID: string): Promise<unknown> {
  if (backend.kind === 'sqlite') {
    await backend.stores().close();
    const db = new DatabaseSync(`${backend.where}/${SQLITE_FILE}`);
    const row = db.prepare('SELECT progress FROM matches WHERE match_id = ?').get(matchID);
    db.close();
    await backend.reopen(true);
    return row?.progress == null ? null : JSON.parse(String(row.progress));
  }
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  const { rows } = await client.query(
    `SELECT progress FROM "${backend.where}".matches WHERE match_id = $1`,
    [matchID],
  );
  await client.end();
  return rows[0]?.progress ?? null;
}

describeContract('the match store', (backend) => {
  const { kind, where } = backend;
  const matches = () => backend.stores().matches;
  /** The match store of another server instance on the same data (on SQLite, the same one). */
  const twinMatches = () => backend.twin().matches;
  const chat = () => backend.stores().chat;

  it('keeps a match, its seats and its initial state', async () => {
    const { match, initial } = newRecord('waiting');
    await matches().createMatch(match, initial);
    expect(await twinMatches().getMatch(match.matchID)).toEqual(match);
    expect(await twinMatches().loadState(match.matchID)).toEqual(initial);
    expect(await matches().getMatch('nosuchmatch')).toBeUndefined();
    const listed = await matches().listPublicMatches({ status: 'waiting', limit: 100 });
    expect(listed.map((m) => m.matchID)).toContain(match.matchID);
    expect(
      await matches().listPublicMatches({ status: 'finished', limit: 100 }),
    ).not.toContainEqual(expect.objectContaining({ matchID: match.matchID }));
  });

  it('records of matches dealt alike hold one frozen copy of their deck, variants and setup', async () => {
    const dealt = [newRecord(), newRecord()];
    for (const { match, initial } of dealt) await matches().createMatch(match, initial);
    const [a, b] = await Promise.all(
      dealt.map(({ match }) => twinMatches().getMatch(match.matchID)),
    );
    if (!a || !b) throw new Error('a created match was not kept');
    expect(a).toEqual(dealt[0]?.match);
    expect(b.deck).toBe(a.deck);
    expect(b.variants).toBe(a.variants);
    expect(b.setupData).toBe(a.setupData);
    const { sides } = a.setupData as { sides: object };
    expect([a.deck, a.variants, a.setupData, sides].every(Object.isFrozen)).toBe(true);
  });

  it('compare-and-set: of two concurrent writes on one state id exactly one wins, every time', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    let current = initial;
    for (let round = 0; round < 20; round++) {
      const a = successor(current, 3);
      const b = successor(current, -3);
      const results = await Promise.all([
        matches().commitMove(match.matchID, current._stateID, a.next, a.move, null),
        twinMatches().commitMove(match.matchID, current._stateID, b.next, b.move, null),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? a : b;
      expect(await matches().loadState(match.matchID)).toEqual(winner.next);
      current = winner.next;
    }
    const moves = await matches().readMoves(match.matchID);
    expect(moves.map((m) => m.stateID)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a stale write changes nothing', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    const first = successor(initial, 1);
    expect(await matches().commitMove(match.matchID, 0, first.next, first.move, null)).toBe(true);
    const stale = successor(initial, 5);
    expect(await twinMatches().commitMove(match.matchID, 0, stale.next, stale.move, null)).toBe(
      false,
    );
    expect(await matches().loadState(match.matchID)).toEqual(first.next);
    expect(await matches().readMoves(match.matchID)).toHaveLength(1);
  });

  it('a finishing move finishes the match in the same write', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    const { next, move } = successor(initial, 8);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await matches().commitMove(match.matchID, 0, next, move, result)).toBe(true);
    expect(await matches().getMatch(match.matchID)).toMatchObject({ status: 'finished', result });
    expect(await matches().finishMatch(match.matchID, null, new Date().toISOString())).toBe(false);
  });

  it('a match record read before a write never reads back stale after it', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    expect(await matches().getMatch(match.matchID)).toEqual(match);
    const clock = {
      perPlayerMs: 60_000,
      remainingMs: { '0': 60_000, '1': 55_000 },
      running: '0',
      since: new Date().toISOString(),
    } as const;
    const first = successor(initial, 1);
    expect(await matches().commitMove(match.matchID, 0, first.next, first.move, null, clock)).toBe(
      true,
    );
    expect(await matches().getMatch(match.matchID)).toEqual({
      ...match,
      updatedAt: first.move.at,
      clock,
    });
    const away = new Date().toISOString();
    await matches().setAway(match.matchID, '1', away);
    expect((await matches().getMatch(match.matchID))?.players[1].awaySince).toBe(away);
    await chat().setChatOff(match.matchID, true);
    expect((await matches().getMatch(match.matchID))?.chatOff).toBe(true);
    await chat().setMuting(match.matchID, '0', true);
    expect((await matches().getMatch(match.matchID))?.players[0].mutingOpponent).toBe(true);
    const stopped = { ...clock, running: null, since: null };
    await matches().setClock(match.matchID, stopped);
    expect((await matches().getMatch(match.matchID))?.clock).toEqual(stopped);
    const last = successor(first.next, 2);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await matches().commitMove(match.matchID, 1, last.next, last.move, result)).toBe(true);
    expect(await matches().getMatch(match.matchID)).toMatchObject({ status: 'finished', result });
    expect((await matches().offerRematch(match.matchID, '0'))?.offers).toEqual(['0']);
    expect((await matches().getMatch(match.matchID))?.rematch).toEqual({
      offers: ['0'],
      matchID: null,
    });
  });

  it('moves of several matches sent in one turn all land; a stale one among them fails alone', async () => {
    const records = Array.from({ length: 5 }, () => newRecord());
    for (const { match, initial } of records) await matches().createMatch(match, initial);
    const ahead = records[2] as (typeof records)[number];
    const first = successor(ahead.initial, 1);
    expect(await matches().commitMove(ahead.match.matchID, 0, first.next, first.move, null)).toBe(
      true,
    );

    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(initial, 10 + i);
      return { next, written: matches().commitMove(match.matchID, 0, next, move, null) };
    });
    const results = await Promise.all(writes.map((w) => w.written));
    expect(results).toEqual([true, true, false, true, true]);
    for (const [i, { match }] of records.entries()) {
      const expected = i === 2 ? first.next : (writes[i] as (typeof writes)[number]).next;
      expect(await matches().loadState(match.matchID)).toEqual(expected);
      expect(await matches().readMoves(match.matchID)).toHaveLength(1);
    }
  });

  it('a move whose write fails is refused alone: its match keeps its state, the rest of its group lands', async () => {
    const records = Array.from({ length: 3 }, () => newRecord());
    for (const { match, initial } of records) await matches().createMatch(match, initial);
    const broken = records[1] as (typeof records)[number];
    const first = successor(broken.initial, 1);
    expect(await matches().commitMove(broken.match.matchID, 0, first.next, first.move, null)).toBe(
      true,
    );

    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(i === 1 ? first.next : initial, 20 + i);
      // The log already holds a move with this state id: appending it again must fail.
      const logged = i === 1 ? { ...move, stateID: first.move.stateID } : move;
      return {
        next,
        written: matches().commitMove(match.matchID, next._stateID - 1, next, logged, null),
      };
    });
    const outcomes = await Promise.allSettled(writes.map((w) => w.written));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([
      true,
      true,
    ]);
    expect(await matches().loadState(broken.match.matchID)).toEqual(first.next);
    expect(await matches().readMoves(broken.match.matchID)).toHaveLength(1);
    for (const i of [0, 2]) {
      const { match } = records[i] as (typeof records)[number];
      expect(await matches().loadState(match.matchID)).toEqual(
        (writes[i] as (typeof writes)[number]).next,
      );
    }
  });

  it('a match that is not in play accepts no move', async () => {
    for (const status of ['waiting', 'finished'] as const) {
      const { match, initial } = newRecord(status);
      await matches().createMatch(match, initial);
      const { next, move } = successor(initial, 2);
      expect(await matches().commitMove(match.matchID, 0, next, move, null)).toBe(false);
      expect(await matches().loadState(match.matchID)).toEqual(initial);
      expect(await matches().readMoves(match.matchID)).toHaveLength(0);
    }
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    expect(await matches().finishMatch(match.matchID, null, new Date().toISOString())).toBe(true);
    const { next, move } = successor(initial, 4);
    expect(await twinMatches().commitMove(match.matchID, 0, next, move, null)).toBe(false);
    expect(await matches().readMoves(match.matchID)).toHaveLength(0);
  });

  it('two concurrent joins take the free seat once', async () => {
    const { match, initial } = newRecord('waiting');
    await matches().createMatch(match, initial);
    const at = new Date().toISOString();
    const claims = await Promise.all([
      matches().claimSeat(match.matchID, '1', 'Boris', hashSecret('b1'), at),
      twinMatches().claimSeat(match.matchID, '1', 'Bella', hashSecret('b2'), at),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const seated = await matches().getMatch(match.matchID);
    expect(seated?.status).toBe('playing');
    expect(seated?.players[1].name).toBe(claims[0] ? 'Boris' : 'Bella');
  });

  it('closing settles every move handed in: each is answered, and kept', async () => {
    const records = Array.from({ length: 4 }, () => newRecord());
    for (const { match, initial } of records) await matches().createMatch(match, initial);
    const closing = kind === 'sqlite' ? backend.stores() : await openTestStores(kind, where);
    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(initial, 30 + i);
      return { next, written: closing.matches.commitMove(match.matchID, 0, next, move, null) };
    });
    await closing.close();
    expect(await Promise.all(writes.map((w) => w.written))).toEqual([true, true, true, true]);
    if (kind === 'sqlite') await backend.reopen(true);
    for (const [i, { match }] of records.entries()) {
      expect(await matches().loadState(match.matchID)).toEqual(
        (writes[i] as (typeof writes)[number]).next,
      );
    }
  });

  it('keeps everything across a reopen (migrations run once)', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    if (kind === 'sqlite') {
      await backend.reopen();
    } else {
      const again = await openTestStores(kind, where);
      expect(await again.matches.getMatch(match.matchID)).toEqual(match);
      await again.close();
    }
    expect(await matches().getMatch(match.matchID)).toEqual(match);
    await backend.stores().ping();
  });

  it('keeps whose decision it is and the last move with the match, written with each move and only then', async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    const deciding = (initial.G as State).decision?.seat;
    expect(deciding).toBeDefined();
    expect(await twinMatches().getMatchProgress(match.matchID)).toEqual({
      match,
      progress: { deciding, lastMove: null },
    });
    expect(await matches().getMatchProgress('nosuchmatch')).toBeUndefined();

    const entries = [{ type: 'firstPlayer', side: 'US' }] as unknown as LogEntry[];
    const first = movedTo(initial, '0', entries);
    expect(await matches().commitMove(match.matchID, 0, first.next, first.move, null)).toBe(true);
    const stale = movedTo(initial, '1', []);
    expect(await twinMatches().commitMove(match.matchID, 0, stale.next, stale.move, null)).toBe(
      false,
    );
    expect(await twinMatches().getMatchProgress(match.matchID)).toEqual({
      match: { ...match, updatedAt: first.move.at },
      progress: { deciding: '0', lastMove: lastOf(first.move) },
    });

    const last = movedTo(first.next, null, []);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await matches().commitMove(match.matchID, 1, last.next, last.move, result)).toBe(true);
    const ended = await matches().getMatchProgress(match.matchID);
    expect(ended?.match).toMatchObject({ status: 'finished', result });
    expect(ended?.progress).toEqual({ deciding: null, lastMove: lastOf(last.move) });
  });

  it("a rematch starts with its own progress, not the finished match's", async () => {
    const { match, initial } = newRecord();
    await matches().createMatch(match, initial);
    const { next, move } = movedTo(initial, '0', []);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await matches().commitMove(match.matchID, 0, next, move, result)).toBe(true);
    const rematch = newRecord();
    const linked = { ...rematch.match, rematchOf: match.matchID };
    expect(await matches().linkRematch(match.matchID, linked, rematch.initial)).toBe(true);
    expect((await twinMatches().getMatchProgress(linked.matchID))?.progress).toEqual({
      deciding: (rematch.initial.G as State).decision?.seat,
      lastMove: null,
    });
  });

  it('a match stored before progress was kept shows its last move and whose decision it is, worked out once', async () => {
    const played = newRecord();
    const fresh = newRecord('waiting');
    await matches().createMatch(played.match, played.initial);
    await matches().createMatch(fresh.match, fresh.initial);
    let state = played.initial;
    let move: MoveRecord | undefined;
    for (let i = 0; i < 5; i++) {
      const step = movedTo(state, i === 4 ? '1' : '0', [
        { type: 'marker', at: i } as unknown as LogEntry,
      ]);
      expect(
        await matches().commitMove(
          played.match.matchID,
          state._stateID,
          step.next,
          step.move,
          null,
        ),
      ).toBe(true);
      state = step.next;
      move = step.move;
    }
    if (!move) throw new Error('no move was made');

    await beforeProgressWasKept(backend);
    expect(await storedProgress(backend, played.match.matchID)).toBeNull();
    const expected = { deciding: '1', lastMove: lastOf(move) };
    expect((await matches().getMatchProgress(played.match.matchID))?.progress).toEqual(expected);
    expect((await twinMatches().getMatchProgress(fresh.match.matchID))?.progress).toEqual({
      deciding: (fresh.initial.G as State).decision?.seat,
      lastMove: null,
    });
    // Kept once worked out: the next read takes it from the match's row.
    expect(await storedProgress(backend, played.match.matchID)).toEqual(expected);

    // The next move writes its own.
    const next = movedTo(state, '0', []);
    expect(
      await matches().commitMove(played.match.matchID, state._stateID, next.next, next.move, null),
    ).toBe(true);
    expect((await twinMatches().getMatchProgress(played.match.matchID))?.progress).toEqual({
      deciding: '0',
      lastMove: lastOf(next.move),
    });
  });
});
