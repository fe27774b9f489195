import fs from 'node:fs';
import path from 'node:path';
import type { Move, Seat } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { deadlineOf } from '../src/storage/index.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import { exited, type Running, startProcess } from './processes.ts';
import {
  createAndJoin,
  dropSchema,
  type GameClient,
  matchInfo,
  openTestStores,
  POSTGRES_URL,
  pickMove,
  playTurn,
  prng,
  type StoreKind,
  seatClient,
  tempDir,
  uniqueSchema,
} from './support.ts';

const MATCHES = 6;
/** Acknowledged moves after which the server is killed, with more moves in flight. */
const KILL_AFTER = 60;

const artifacts = path.join(
  import.meta.dirname,
  '..',
  'test-artifacts',
  `durability-${process.pid}`,
);
const bundle = path.join(artifacts, 'main.js');

beforeAll(async () => {
  await bundleServer(bundle);
});
afterAll(() => {
  fs.rmSync(artifacts, { recursive: true, force: true });
});

/** Starts the built server as a child process and waits for the URL it prints. */
function spawnServer(env: Record<string, string>): Promise<Running> {
  return startProcess([bundle], {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
    LOBBY_WRITES_PER_MINUTE: '100000',
    // Every client of a test comes from 127.0.0.1: lift the per-address socket limits too.
    SOCKETS_PER_ADDRESS: '100000',
    SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '100000',
    SOCKET_CONNECTS_AT_ONCE: '100000',
    ...env,
  });
}

interface Seated {
  matchID: string;
  credentials: Record<Seat, string>;
  /** Moves the server acknowledged, by the state id they produced. */
  acked: Map<number, Move & { seat: Seat }>;
}

/** Both seats of a match move in turn until the connection dies or `limit` moves are made. */
async function play(url: string, match: Seated, seed: number, onAck: () => void, limit = Infinity) {
  const seats: Record<Seat, GameClient> = {
    '0': await seatClient(url, match.matchID, '0', match.credentials['0']),
    '1': await seatClient(url, match.matchID, '1', match.credentials['1']),
  };
  const random = prng(seed);
  let made = 0;
  try {
    while (seats['0'].gameover === undefined && made < limit) {
      const seat = seats['0'].view.decision?.seat as Seat;
      const player = seats[seat];
      const stateID = player.state?.stateID ?? 0;
      const move = pickMove(player, random);
      const ack = await player.move(move);
      if (!ack.ok) throw new Error(`refused: ${ack.error.code} ${ack.error.message}`);
      match.acked.set(stateID + 1, { ...move, seat });
      made += 1;
      onAck();
      for (const s of [seats['0'], seats['1']]) {
        await s.until(() => (s.state?.stateID ?? 0) > stateID, 'update', 5_000);
      }
    }
  } catch (error) {
    // The server was killed under us: stop here. Anything else is a failure.
    if (seats['0'].socket.connected && seats['1'].socket.connected) throw error;
  } finally {
    seats['0'].close();
    seats['1'].close();
  }
  return made;
}

describe.each(['sqlite', 'postgres'] as StoreKind[])('SIGKILL on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  const env: Record<string, string> =
    kind === 'sqlite'
      ? { DATA_DIR: where }
      : { DATABASE_URL: POSTGRES_URL, DATABASE_SCHEMA: where };

  afterAll(async () => {
    if (kind === 'postgres') await dropSchema(where);
    else fs.rmSync(where, { recursive: true, force: true });
  });

  it('every acknowledged move survives, and the matches resume', async () => {
    const first = await spawnServer(env);
    if (kind === 'sqlite') {
      // The live server owns the data directory: nobody else may open it.
      expect(() => openSqliteStores(where)).toThrow(/in use/);
    }
    const matches: Seated[] = [];
    for (let i = 0; i < MATCHES; i++) {
      const { created, joined } = await createAndJoin(first.url, { visibility: 'public' });
      matches.push({
        matchID: created.matchID,
        credentials: { '0': created.credentials, '1': joined.credentials },
        acked: new Map(),
      });
    }
    let total = 0;
    const onAck = () => {
      total += 1;
      if (total === KILL_AFTER) first.child.kill('SIGKILL');
    };
    await Promise.all(matches.map((m, i) => play(first.url, m, 100 + i, onAck)));
    expect(await exited(first.child)).toEqual({ code: null, signal: 'SIGKILL' });
    expect(total).toBeGreaterThanOrEqual(KILL_AFTER);

    const second = await spawnServer(env);
    for (const [i, match] of matches.entries()) {
      const spectator = await seatClient(second.url, match.matchID, null);
      const lastAcked = Math.max(0, ...match.acked.keys());
      expect(spectator.state?.stateID).toBeGreaterThanOrEqual(lastAcked);
      spectator.close();
      // The seats come back with their credentials and play on.
      const more = await play(second.url, match, 200 + i, () => undefined, 6);
      expect(more).toBeGreaterThan(0);
    }
    second.child.kill('SIGTERM');
    expect(await exited(second.child)).toEqual({ code: 0, signal: null });
    expect(second.output.join('')).toContain('"msg":"stopped"');

    const store = await openTestStores(kind, where);
    try {
      for (const match of matches) {
        const moves = await store.matches.readMoves(match.matchID);
        expect(moves.map((m) => m.stateID)).toEqual(moves.map((_, i) => i + 1));
        const byState = new Map(moves.map((m) => [m.stateID, m]));
        for (const [stateID, move] of match.acked) {
          expect(byState.get(stateID)).toMatchObject({
            seat: move.seat,
            move: move.move,
            args: JSON.parse(JSON.stringify(move.args)),
          });
        }
        expect((await store.matches.loadState(match.matchID))?._stateID).toBe(moves.length);
      }
    } finally {
      await store.close();
    }
  }, 180_000);

  it('a correspondence turn’s deadline survives SIGKILL, and the next server ends the match on it', async () => {
    const first = await spawnServer(env);
    const { created, joined } = await createAndJoin(first.url, { daysPerTurn: 1 });
    const { matchID } = created;
    const credentials = { '0': created.credentials, '1': joined.credentials };
    const starter = await until(async () => (await matchInfo(first, matchID)).clock?.running);
    const mover = await seatClient(first.url, matchID, starter, credentials[starter]);
    await playTurn(mover, prng(41));
    mover.close();
    first.child.kill('SIGKILL');
    expect(await exited(first.child)).toEqual({ code: null, signal: 'SIGKILL' });

    // The handed-over turn's deadline is in the store. A day passes while no server runs.
    const next: Seat = starter === '0' ? '1' : '0';
    const store = await openTestStores(kind, where);
    try {
      const clock = (await store.matches.getMatch(matchID))?.clock;
      expect(clock?.running).toBe(next);
      const since = Date.parse(clock?.since ?? '');
      expect(deadlineOf(clock)).toBe(since + 24 * 3600 * 1000);
      if (!clock) throw new Error('no clock');
      await store.matches.setClock(matchID, {
        ...clock,
        since: new Date(since - 24 * 3600 * 1000).toISOString(),
      });
    } finally {
      await store.close();
    }

    const second = await spawnServer(env);
    try {
      const result = await until(async () => (await matchInfo(second, matchID)).result);
      expect(result).toMatchObject({ winner: starter, reason: 'timeout' });
    } finally {
      second.child.kill('SIGTERM');
      await exited(second.child);
    }
  }, 120_000);
});

/** Polls (on the real clock) until `read` answers something. */
async function until<T>(read: () => Promise<T | null | undefined>): Promise<T> {
  let value: T | null | undefined;
  await expect
    .poll(
      async () => {
        value = await read();
        return value ?? null;
      },
      { timeout: 10_000 },
    )
    .not.toBeNull();
  return value as T;
}
