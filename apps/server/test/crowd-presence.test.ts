import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisFanout } from '../src/match/fanout.ts';
import { CROWD_EVERY_MS, CROWD_SLICE } from '../src/match/seat-sessions.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { Crowd } from './crowd.ts';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  type GameClient,
  openTestStores,
  request,
  seatClient,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

/** Spectators of a match as the lobby counts them (every instance's, as the server knows now). */
async function counted(server: TestServer, matchID: string): Promise<number> {
  const info = await request<{ spectators: number }>(`${server.url}/api/matches/${matchID}`, 'GET');
  return info.body.spectators;
}

/**
 * Presence with a crowd watching (issue 38): every join used to tell everyone already
 * watching, K(K+1)/2 presence frames for K spectators. A seat's presence is still told at
 * once; the crowd's count is told at the match's tick, once per CROWD_EVERY_MS at most. The
 * server's clock stands still here unless the test moves it, so the tick fires only then.
 */
describe('presence with a crowd watching', () => {
  const K = 300;
  const time = new ManualTime();
  let server: TestServer;
  let matchID: string;
  let seat0: GameClient;
  let credentials1: string;
  let crowd: Crowd;
  /** The match's state and move log read from the store, from the crowd's first join on. */
  let statesRead = 0;
  let logsRead = 0;

  beforeAll(async () => {
    server = await startServer({ time });
    const { created, joined } = await createAndJoin(server.url, { side: 'US' });
    matchID = created.matchID;
    credentials1 = joined.credentials;
    seat0 = await seatClient(server.url, matchID, '0', created.credentials);
    const { matches } = server.stores;
    const loadState = matches.loadState.bind(matches);
    matches.loadState = (id) => {
      if (id === matchID) statesRead += 1;
      return loadState(id);
    };
    const readMoves = matches.readMoves.bind(matches);
    matches.readMoves = (id) => {
      if (id === matchID) logsRead += 1;
      return readMoves(id);
    };
    crowd = await Crowd.join(server.url, matchID, K, { together: true });
  }, 60_000);

  afterAll(async () => {
    crowd?.close();
    seat0?.close();
    await server?.close();
  });

  it('syncs asked for at once are read for and sent together, each spectator its own frames', async () => {
    // Every spectator was sent one sync and its chat's history, as when each joined alone.
    expect(crowd.frames.sync).toBe(K);
    expect(crowd.frames.chat).toBe(K);
    // Alone, each sync read the state (and the match, log and chat) again: K reads.
    expect(statesRead).toBeLessThan(K / 4);
  });

  it("a crowd's sync batches read the match's state and log from the store at most once, not once per batch", () => {
    // K spectators arrive in more than one batch; the seat's sync left both with the room.
    expect(K).toBeGreaterThan(CROWD_SLICE);
    expect(crowd.frames.sync).toBe(K);
    expect(statesRead).toBeLessThanOrEqual(1);
    expect(logsRead).toBeLessThanOrEqual(1);
  });

  it('a crowd joining is told its count once, at the tick, not once per join to everyone', async () => {
    // Each spectator's sync carried the count as it joined; no join told anyone else.
    expect(crowd.presenceFrames).toBe(0);
    time.advance(CROWD_EVERY_MS);
    // The last to join was told K by its sync already: the count is told to everyone alike.
    await crowd.until(
      () => crowd.presenceFrames >= K && crowd.toldCounts().every((n) => n === K),
      `every spectator told ${K} watch`,
    );
    await seat0.until(() => seat0.presence?.spectators === K, `the seat told ${K} watch`);
    // One frame per spectator (the storm was K(K+1)/2 = 45,150).
    expect(crowd.presenceFrames).toBe(K);
  });

  it("a seat's arrival and departure reach the other seat and the crowd at once, without waiting for the tick", async () => {
    // The clock does not move in this test: the crowd's tick cannot fire.
    const seat1 = await seatClient(server.url, matchID, '1', credentials1);
    await seat0.until(
      () => seat0.presence?.players['1'].connected === true,
      'seat 1 shown connected to seat 0',
    );
    await seat1.until(
      () => seat1.presence?.players['0'].connected === true,
      'seat 0 shown connected to seat 1',
    );
    await crowd.until(
      () => crowd.told().every((p) => p?.players['1'].connected === true),
      'seat 1 shown connected to the crowd',
    );
    seat1.close();
    await seat0.until(
      () => seat0.presence?.players['1'].connected === false,
      'seat 1 shown gone to seat 0',
    );
    await crowd.until(
      () => crowd.told().every((p) => p?.players['1'].connected === false),
      'seat 1 shown gone to the crowd',
    );
    expect(seat0.presence?.spectators).toBe(K);
  });

  it('spectators who leave are counted out at the next tick, in one frame to each who stays', async () => {
    const before = crowd.presenceFrames;
    crowd.leave(K / 2);
    await expect.poll(() => counted(server, matchID), { timeout: 10_000 }).toBe(K / 2);
    expect(crowd.presenceFrames).toBe(before);
    time.advance(CROWD_EVERY_MS);
    await crowd.until(
      () => crowd.toldCounts().every((n) => n === K / 2),
      `every remaining spectator told ${K / 2} watch`,
    );
    await seat0.until(() => seat0.presence?.spectators === K / 2, `the seat told ${K / 2} watch`);
    expect(crowd.presenceFrames - before).toBe(K / 2);
  });
});

describe('a crowd split across two instances sharing Postgres and Redis', () => {
  const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const schema = uniqueSchema();
  const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
  const servers: TestServer[] = [];
  const crowds: Crowd[] = [];

  async function instance(): Promise<TestServer> {
    const server = await startServer({
      stores: await openTestStores('postgres', schema),
      fanout: await openRedisFanout(REDIS_URL, `iron-curtain-test:${schema}`, logger),
    });
    servers.push(server);
    return server;
  }

  afterAll(async () => {
    for (const crowd of crowds) crowd.close();
    await Promise.all(servers.map((s) => s.close()));
    await dropSchema(schema);
  });

  it('both instances tell the same count, the sum of their crowds, as spectators come and go', async () => {
    const [a, b] = [await instance(), await instance()];
    const { created } = await createAndJoin(a.url, { visibility: 'public' });
    const { matchID } = created;
    const seat0 = await seatClient(a.url, matchID, '0', created.credentials);
    try {
      const onA = await Crowd.join(a.url, matchID, 20);
      const onB = await Crowd.join(b.url, matchID, 30);
      crowds.push(onA, onB);
      const allTold = (n: number) =>
        Promise.all(
          [onA, onB].map((c) =>
            c.until(() => c.toldCounts().every((told) => told === n), `every spectator told ${n}`),
          ),
        );
      await allTold(50);
      await seat0.until(() => seat0.presence?.spectators === 50, 'the seat told 50 watch');
      onB.leave(10);
      onA.leave(5);
      await allTold(35);
      await seat0.until(() => seat0.presence?.spectators === 35, 'the seat told 35 watch');
    } finally {
      seat0.close();
    }
  }, 30_000);
});
