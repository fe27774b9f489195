import fs from 'node:fs';
import path from 'node:path';
import { legalMoves, type State } from '@iron-curtain/game';
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
import { MatchEngine } from '../../src/match/engine.ts';
import { playedWith } from '../../src/reducer/played-with.ts';
import { SQLITE_FILE } from '../../src/storage/database/sqlite-database.ts';
import type { MatchRecord, StoredState, Stores } from '../../src/storage/index.ts';
import { SNAPSHOT_EVERY } from '../../src/storage/matches/sqlite-move-groups.ts';
import { openSqliteStores } from '../../src/storage/sqlite.ts';
import { tempDir } from '../support.ts';
import { newRecord, successor } from './contract.ts';

// What only the embedded backend does: one owner of the file, snapshots every
// SNAPSHOT_EVERY moves, and an fsync of the WAL before any write is answered.

describe('the SQLite file', () => {
  const where = tempDir();
  const stores = openSqliteStores(where);
  afterAll(async () => {
    await stores.close();
    fs.rmSync(where, { recursive: true, force: true });
  });

  it('refuses a second owner of the data directory', () => {
    expect(() => openSqliteStores(where)).toThrow(/in use/);
  });
});

describe('the SQLite store keeping most moves in its log alone', () => {
  const where = tempDir();
  let stores = openSqliteStores(where, { snapshots: true });
  afterAll(async () => {
    await stores.close();
    fs.rmSync(where, { recursive: true, force: true });
  });

  /** Plays `count` real moves on from `state` (stopping at the match's end), checking each load. */
  async function play(match: MatchRecord, state: StoredState, count: number) {
    const engine = new MatchEngine(stores.matches);
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
      expect(await stores.matches.loadState(match.matchID)).toEqual(moved.state);
      at = moved.state;
    }
    return at;
  }

  it('loads every state of a match back whole, across snapshots and a reopen', async () => {
    const { match, initial } = newRecord();
    await stores.matches.createMatch(match, initial);
    const state = await play(match, initial, 2 * SNAPSHOT_EVERY + 3);
    expect(state._stateID).toBeGreaterThan(SNAPSHOT_EVERY + 1);
    expect(state._stateID % SNAPSHOT_EVERY).not.toBe(0);
    const stale = successor(initial, 7);
    expect(await stores.matches.commitMove(match.matchID, 0, stale.next, stale.move, null)).toBe(
      false,
    );
    await stores.close();
    stores = openSqliteStores(where);
    // Opened without snapshots, the store still replays what the file holds.
    expect(await stores.matches.loadState(match.matchID)).toEqual(state);
    expect((await stores.matches.readMoves(match.matchID)).map((m) => m.stateID)).toEqual(
      Array.from({ length: state._stateID }, (_, i) => i + 1),
    );
  });
});

describe('the SQLite store syncing its WAL off the event loop', () => {
  const where = tempDir();
  let stores: Stores;
  let fileSync: MockInstance<() => Promise<void>>;

  beforeAll(async () => {
    stores = openSqliteStores(where);
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
    await stores.matches.createMatch(match, initial);
    fileSync.mockClear();
    let releaseSync = () => {};
    fileSync.mockImplementationOnce(() => new Promise<void>((resolve) => (releaseSync = resolve)));
    const { next, move } = successor(initial, 1);
    let answered = false;
    const written = stores.matches.commitMove(match.matchID, 0, next, move, null).then((ok) => {
      answered = true;
      return ok;
    });
    await vi.waitFor(() => expect(fileSync).toHaveBeenCalledTimes(1));
    // The commit is in the file, but the move is not answered while its fsync runs.
    expect(await stores.matches.loadState(match.matchID)).toEqual(next);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    // A move committed meanwhile waits for the next fsync, not for the one already running.
    const later = successor(next, 2);
    const laterWritten = stores.matches.commitMove(match.matchID, 1, later.next, later.move, null);
    releaseSync();
    expect(await written).toBe(true);
    expect(await laterWritten).toBe(true);
    expect(fileSync).toHaveBeenCalledTimes(2);
  });

  it('after a failed fsync no write is answered as stored, and the health check fails', async () => {
    const { match, initial } = newRecord();
    await stores.matches.createMatch(match, initial);
    fileSync.mockRejectedValueOnce(Object.assign(new Error('EIO: i/o error'), { code: 'EIO' }));
    const { next, move } = successor(initial, 1);
    await expect(stores.matches.commitMove(match.matchID, 0, next, move, null)).rejects.toThrow(
      /could not be synced/,
    );
    await expect(stores.ping()).rejects.toThrow(/could not be synced/);
    const again = successor(next, 2);
    await expect(
      stores.matches.commitMove(match.matchID, 1, again.next, again.move, null),
    ).rejects.toThrow(/could not be synced/);
    await expect(stores.chat.setChatOff(match.matchID, true)).rejects.toThrow(
      /could not be synced/,
    );
    await stores.close();
  });
});
