import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DECK, legalMoves, type State } from '@iron-curtain/game';
import {
  afterAll,
  afterEach,
  beforeAll,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { initialState, MatchEngine, playedWith } from '../src/match/engine.ts';
import { hashSecret, newMatchID, newSeed } from '../src/ops/secrets.ts';
import { openSqliteStore, SNAPSHOT_EVERY, SQLITE_FILE } from '../src/storage/sqlite.ts';
import type {
  MatchRecord,
  MatchStatus,
  MoveRecord,
  Store,
  StoredState,
} from '../src/storage/store.ts';
import {
  deckInfoOf,
  dropSchema,
  openTestStore,
  type StoreKind,
  tempDir,
  uniqueSchema,
} from './support.ts';

/** A match record; moves are only stored while a match is 'playing'. */
function newRecord(status: MatchStatus = 'playing'): { match: MatchRecord; initial: StoredState } {
  const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };
  const seed = newSeed();
  const now = new Date().toISOString();
  const match: MatchRecord = {
    matchID: newMatchID(),
    visibility: 'public',
    status,
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck: deckInfoOf(DEFAULT_DECK),
    setupData,
    seed,
    inviteHash: hashSecret('invite'),
    players: [
      { seat: '0', side: 'US', name: 'Ann', credentialsHash: hashSecret('ann') },
      { seat: '1', side: 'USSR', name: null, credentialsHash: null },
    ],
    createdAt: now,
    updatedAt: now,
    result: null,
  };
  return { match, initial: initialState(match) };
}

/** A successor of `state` that differs by `marker`, as a move would produce it. */
function successor(state: StoredState, marker: number): { next: StoredState; move: MoveRecord } {
  const next = structuredClone(state);
  next._stateID = state._stateID + 1;
  (next.G as State).marker = marker;
  return {
    next,
    move: {
      stateID: next._stateID,
      seat: '1',
      move: 'chooseFirstPlayer',
      args: [marker > 0 ? 'US' : 'USSR'],
      entries: [],
      at: new Date().toISOString(),
    },
  };
}

describe.each(['sqlite', 'postgres'] as StoreKind[])('the %s store', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let store: Store;
  /** A second store on the same data: another server instance (Postgres only; SQLite has one owner). */
  let twin: Store;

  beforeAll(async () => {
    store = await openTestStore(kind, where);
    twin = kind === 'postgres' ? await openTestStore(kind, where) : store;
  });
  afterAll(async () => {
    if (twin !== store) await twin.close();
    await store.close();
    if (kind === 'postgres') await dropSchema(where);
    else fs.rmSync(where, { recursive: true, force: true });
  });

  it('keeps a match, its seats and its initial state', async () => {
    const { match, initial } = newRecord('waiting');
    await store.createMatch(match, initial);
    expect(await twin.getMatch(match.matchID)).toEqual(match);
    expect(await twin.loadState(match.matchID)).toEqual(initial);
    expect(await store.getMatch('nosuchmatch')).toBeUndefined();
    const listed = await store.listPublicMatches({ status: 'waiting', limit: 100 });
    expect(listed.map((m) => m.matchID)).toContain(match.matchID);
    expect(await store.listPublicMatches({ status: 'finished', limit: 100 })).not.toContainEqual(
      expect.objectContaining({ matchID: match.matchID }),
    );
  });

  it('records of matches dealt alike hold one frozen copy of their deck, variants and setup', async () => {
    const dealt = [newRecord(), newRecord()];
    for (const { match, initial } of dealt) await store.createMatch(match, initial);
    const [a, b] = await Promise.all(dealt.map(({ match }) => twin.getMatch(match.matchID)));
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
    await store.createMatch(match, initial);
    let current = initial;
    for (let round = 0; round < 20; round++) {
      const a = successor(current, 3);
      const b = successor(current, -3);
      const results = await Promise.all([
        store.commitMove(match.matchID, current._stateID, a.next, a.move, null),
        twin.commitMove(match.matchID, current._stateID, b.next, b.move, null),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? a : b;
      expect(await store.loadState(match.matchID)).toEqual(winner.next);
      current = winner.next;
    }
    const moves = await store.readMoves(match.matchID);
    expect(moves.map((m) => m.stateID)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it('a stale write changes nothing', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    const first = successor(initial, 1);
    expect(await store.commitMove(match.matchID, 0, first.next, first.move, null)).toBe(true);
    const stale = successor(initial, 5);
    expect(await twin.commitMove(match.matchID, 0, stale.next, stale.move, null)).toBe(false);
    expect(await store.loadState(match.matchID)).toEqual(first.next);
    expect(await store.readMoves(match.matchID)).toHaveLength(1);
  });

  it('a finishing move finishes the match in the same write', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    const { next, move } = successor(initial, 8);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await store.commitMove(match.matchID, 0, next, move, result)).toBe(true);
    expect(await store.getMatch(match.matchID)).toMatchObject({ status: 'finished', result });
    expect(await store.finishMatch(match.matchID, null, new Date().toISOString())).toBe(false);
  });

  it('a match record read before a write never reads back stale after it', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    expect(await store.getMatch(match.matchID)).toEqual(match);
    const clock = {
      perPlayerMs: 60_000,
      remainingMs: { '0': 60_000, '1': 55_000 },
      running: '0',
      since: new Date().toISOString(),
    } as const;
    const first = successor(initial, 1);
    expect(await store.commitMove(match.matchID, 0, first.next, first.move, null, clock)).toBe(
      true,
    );
    expect(await store.getMatch(match.matchID)).toEqual({
      ...match,
      updatedAt: first.move.at,
      clock,
    });
    const away = new Date().toISOString();
    await store.setAway(match.matchID, '1', away);
    expect((await store.getMatch(match.matchID))?.players[1].awaySince).toBe(away);
    await store.setChatOff(match.matchID, true);
    expect((await store.getMatch(match.matchID))?.chatOff).toBe(true);
    await store.setMuting(match.matchID, '0', true);
    expect((await store.getMatch(match.matchID))?.players[0].mutingOpponent).toBe(true);
    const stopped = { ...clock, running: null, since: null };
    await store.setClock(match.matchID, stopped);
    expect((await store.getMatch(match.matchID))?.clock).toEqual(stopped);
    const last = successor(first.next, 2);
    const result = { winner: '0', winnerSide: 'US', reason: 'track' } as const;
    expect(await store.commitMove(match.matchID, 1, last.next, last.move, result)).toBe(true);
    expect(await store.getMatch(match.matchID)).toMatchObject({ status: 'finished', result });
    expect((await store.offerRematch(match.matchID, '0'))?.offers).toEqual(['0']);
    expect((await store.getMatch(match.matchID))?.rematch).toEqual({
      offers: ['0'],
      matchID: null,
    });
  });

  it('moves of several matches sent in one turn all land; a stale one among them fails alone', async () => {
    const records = Array.from({ length: 5 }, () => newRecord());
    for (const { match, initial } of records) await store.createMatch(match, initial);
    const ahead = records[2] as (typeof records)[number];
    const first = successor(ahead.initial, 1);
    expect(await store.commitMove(ahead.match.matchID, 0, first.next, first.move, null)).toBe(true);

    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(initial, 10 + i);
      return { next, written: store.commitMove(match.matchID, 0, next, move, null) };
    });
    const results = await Promise.all(writes.map((w) => w.written));
    expect(results).toEqual([true, true, false, true, true]);
    for (const [i, { match }] of records.entries()) {
      const expected = i === 2 ? first.next : (writes[i] as (typeof writes)[number]).next;
      expect(await store.loadState(match.matchID)).toEqual(expected);
      expect(await store.readMoves(match.matchID)).toHaveLength(1);
    }
  });

  it('a move whose write fails is refused alone: its match keeps its state, the rest of its group lands', async () => {
    const records = Array.from({ length: 3 }, () => newRecord());
    for (const { match, initial } of records) await store.createMatch(match, initial);
    const broken = records[1] as (typeof records)[number];
    const first = successor(broken.initial, 1);
    expect(await store.commitMove(broken.match.matchID, 0, first.next, first.move, null)).toBe(
      true,
    );

    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(i === 1 ? first.next : initial, 20 + i);
      // The log already holds a move with this state id: appending it again must fail.
      const logged = i === 1 ? { ...move, stateID: first.move.stateID } : move;
      return {
        next,
        written: store.commitMove(match.matchID, next._stateID - 1, next, logged, null),
      };
    });
    const outcomes = await Promise.allSettled(writes.map((w) => w.written));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value)).toEqual([
      true,
      true,
    ]);
    expect(await store.loadState(broken.match.matchID)).toEqual(first.next);
    expect(await store.readMoves(broken.match.matchID)).toHaveLength(1);
    for (const i of [0, 2]) {
      const { match } = records[i] as (typeof records)[number];
      expect(await store.loadState(match.matchID)).toEqual(
        (writes[i] as (typeof writes)[number]).next,
      );
    }
  });

  it('a match that is not in play accepts no move', async () => {
    for (const status of ['waiting', 'finished'] as const) {
      const { match, initial } = newRecord(status);
      await store.createMatch(match, initial);
      const { next, move } = successor(initial, 2);
      expect(await store.commitMove(match.matchID, 0, next, move, null)).toBe(false);
      expect(await store.loadState(match.matchID)).toEqual(initial);
      expect(await store.readMoves(match.matchID)).toHaveLength(0);
    }
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    expect(await store.finishMatch(match.matchID, null, new Date().toISOString())).toBe(true);
    const { next, move } = successor(initial, 4);
    expect(await twin.commitMove(match.matchID, 0, next, move, null)).toBe(false);
    expect(await store.readMoves(match.matchID)).toHaveLength(0);
  });

  it('two concurrent joins take the free seat once', async () => {
    const { match, initial } = newRecord('waiting');
    await store.createMatch(match, initial);
    const at = new Date().toISOString();
    const claims = await Promise.all([
      store.claimSeat(match.matchID, '1', 'Boris', hashSecret('b1'), at),
      twin.claimSeat(match.matchID, '1', 'Bella', hashSecret('b2'), at),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const seated = await store.getMatch(match.matchID);
    expect(seated?.status).toBe('playing');
    expect(seated?.players[1].name).toBe(claims[0] ? 'Boris' : 'Bella');
  });

  it('keeps the first server secret made: later calls and every instance read that one', async () => {
    const made = await Promise.all([
      store.serverSecret('test-key', 'first'),
      twin.serverSecret('test-key', 'second'),
    ]);
    expect(made[0]).toBe(made[1]);
    expect(await store.serverSecret('test-key', 'third')).toBe(made[0]);
    expect(await store.serverSecret('other-key', 'fourth')).toBe('fourth');
  });

  it('closing settles every move handed in: each is answered, and kept', async () => {
    const records = Array.from({ length: 4 }, () => newRecord());
    for (const { match, initial } of records) await store.createMatch(match, initial);
    const closing = kind === 'sqlite' ? store : await openTestStore(kind, where);
    const writes = records.map(({ match, initial }, i) => {
      const { next, move } = successor(initial, 30 + i);
      return { next, written: closing.commitMove(match.matchID, 0, next, move, null) };
    });
    await closing.close();
    expect(await Promise.all(writes.map((w) => w.written))).toEqual([true, true, true, true]);
    if (kind === 'sqlite') {
      store = openSqliteStore(where);
      twin = store;
    }
    for (const [i, { match }] of records.entries()) {
      expect(await store.loadState(match.matchID)).toEqual(
        (writes[i] as (typeof writes)[number]).next,
      );
    }
  });

  it('keeps everything across a reopen (migrations run once)', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    if (kind === 'sqlite') {
      await store.close();
      store = openSqliteStore(where);
      twin = store;
    } else {
      const again = await openTestStore(kind, where);
      expect(await again.getMatch(match.matchID)).toEqual(match);
      await again.close();
    }
    expect(await store.getMatch(match.matchID)).toEqual(match);
    await store.ping();
  });

  if (kind === 'sqlite') {
    it('refuses a second owner of the data directory', () => {
      expect(() => openSqliteStore(where)).toThrow(/in use/);
    });
  }
});

describe('the SQLite store keeping most moves in its log alone', () => {
  const where = tempDir();
  let store = openSqliteStore(where, { snapshots: true });
  afterAll(async () => {
    await store.close();
    fs.rmSync(where, { recursive: true, force: true });
  });

  /** Plays `count` real moves on from `state` (stopping at the match's end), checking each load. */
  async function play(match: MatchRecord, state: StoredState, count: number) {
    const engine = new MatchEngine(store);
    const { rules } = playedWith(match);
    let at = state;
    for (let i = 0; i < count; i++) {
      const G = at.G as State;
      const seat = G.decision?.seat;
      if (!seat) break;
      const options = legalMoves(rules, G, seat);
      const pick = options[(i * 7) % options.length] as (typeof options)[number];
      const request = { seat, stateID: at._stateID, move: pick.move, args: pick.args };
      const moved = await engine.move(match, request, undefined, at);
      if (!moved.ok) throw new Error(moved.error.message);
      expect(await store.loadState(match.matchID)).toEqual(moved.state);
      at = moved.state;
    }
    return at;
  }

  it('loads every state of a match back whole, across snapshots and a reopen', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    const state = await play(match, initial, 2 * SNAPSHOT_EVERY + 3);
    expect(state._stateID).toBeGreaterThan(SNAPSHOT_EVERY + 1);
    expect(state._stateID % SNAPSHOT_EVERY).not.toBe(0);
    const stale = successor(initial, 7);
    expect(await store.commitMove(match.matchID, 0, stale.next, stale.move, null)).toBe(false);
    await store.close();
    store = openSqliteStore(where);
    // Opened without snapshots, the store still replays what the file holds.
    expect(await store.loadState(match.matchID)).toEqual(state);
    expect((await store.readMoves(match.matchID)).map((m) => m.stateID)).toEqual(
      Array.from({ length: state._stateID }, (_, i) => i + 1),
    );
  });
});

describe('the SQLite store syncing its WAL off the event loop', () => {
  const where = tempDir();
  let store: Store;
  let fileSync: MockInstance<() => Promise<void>>;

  beforeAll(async () => {
    store = openSqliteStore(where);
    // FileHandle is not exported: its prototype comes from a handle.
    const handle = await fs.promises.open(path.join(where, SQLITE_FILE), 'r');
    const fileHandle = Object.getPrototypeOf(handle) as { sync(): Promise<void> };
    await handle.close();
    fileSync = vi.spyOn(fileHandle, 'sync');
  });
  afterEach(() => fileSync.mockReset());
  afterAll(() => {
    fileSync.mockRestore();
    fs.rmSync(where, { recursive: true, force: true });
  });

  it('a move is answered only once an fsync begun after its commit has finished', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    fileSync.mockClear();
    let releaseSync = () => {};
    fileSync.mockImplementationOnce(() => new Promise<void>((resolve) => (releaseSync = resolve)));
    const { next, move } = successor(initial, 1);
    let answered = false;
    const written = store.commitMove(match.matchID, 0, next, move, null).then((ok) => {
      answered = true;
      return ok;
    });
    await vi.waitFor(() => expect(fileSync).toHaveBeenCalledTimes(1));
    // The commit is in the file, but the move is not answered while its fsync runs.
    expect(await store.loadState(match.matchID)).toEqual(next);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    // A move committed meanwhile waits for the next fsync, not for the one already running.
    const later = successor(next, 2);
    const laterWritten = store.commitMove(match.matchID, 1, later.next, later.move, null);
    releaseSync();
    expect(await written).toBe(true);
    expect(await laterWritten).toBe(true);
    expect(fileSync).toHaveBeenCalledTimes(2);
  });

  it('after a failed fsync no write is answered as stored, and the health check fails', async () => {
    const { match, initial } = newRecord();
    await store.createMatch(match, initial);
    fileSync.mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const { next, move } = successor(initial, 1);
    await expect(store.commitMove(match.matchID, 0, next, move, null)).rejects.toThrow(
      /could not be synced/,
    );
    await expect(store.ping()).rejects.toThrow(/could not be synced/);
    const again = successor(next, 2);
    await expect(store.commitMove(match.matchID, 1, again.next, again.move, null)).rejects.toThrow(
      /could not be synced/,
    );
    await expect(store.setChatOff(match.matchID, true)).rejects.toThrow(/could not be synced/);
    await store.close();
  });
});
