import fs from 'node:fs';
import type { RestartNotice, SyncMessage } from '@iron-curtain/protocol';
import { io, type Socket } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { socketTransport } from '../../web/src/match/transport.ts';
import { ALIVE_MS, type Fanout, openRedisFanout } from '../src/match/fanout.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import { ManualTime } from './manual-time.ts';
import { createAndJoin, startServer, type TestServer } from './support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
let instances = 0;
/** Instances of one server group in Redis: a namespace of their own, so no other test's count. */
const redisGroup = () => {
  const namespace = `iron-curtain-test:restart:${process.pid}:${Date.now()}:${instances++}`;
  return (time?: ManualTime) => openRedisFanout(REDIS_URL, namespace, logger, time);
};
const peers: Fanout[] = [];

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
  await Promise.all(peers.splice(0).map((peer) => peer.close()));
});

const until = async (done: () => boolean, what: string) => {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 15_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('a graceful restart', () => {
  it('lets plain socket.io clients come back by themselves and resync', async () => {
    const first = await startServer();
    const port = new URL(first.url).port;
    const { created } = await createAndJoin(first.url);

    // Like apps/web's transport: socket.io-client's own reconnection, a sync on every connect.
    const socket = io(`${first.url}/game`, { transports: ['websocket'], reconnectionDelay: 100 });
    const syncs: SyncMessage[] = [];
    const reasons: string[] = [];
    socket.on('connect', () =>
      socket.emit('sync', {
        matchID: created.matchID,
        playerID: '0',
        credentials: created.credentials,
      }),
    );
    socket.on('sync', (message: SyncMessage) => syncs.push(message));
    socket.on('disconnect', (reason) => reasons.push(reason));
    await until(() => syncs.length === 1, 'the first sync');

    await first.app.close();
    const dataDir = first.config.DATA_DIR;
    running = await startServer({ stores: openSqliteStores(dataDir), env: { PORT: port } });
    await until(() => syncs.length === 2, 'the client to come back');

    expect(reasons).toEqual(['transport close']);
    expect(syncs[1]?.state.stateID).toBe(syncs[0]?.state.stateID);
    expect(syncs[1]?.playerID).toBe('0');
    socket.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);

  /**
   * A seated player and 20 spectators of one match on `server`, and what each is told when it
   * stops, its successor expected to listen in 700 ms (plain clients that ignore the notice:
   * the stop does not wait for them to leave).
   */
  async function noticesAtStop(server: TestServer) {
    running = server;
    const { created } = await createAndJoin(server.url);
    const notices = new Map<Socket, RestartNotice>();
    const connect = (playerID: string | null) => {
      const socket = io(`${server.url}/game`, { transports: ['websocket'], reconnection: false });
      socket.on('connect', () =>
        socket.emit('sync', {
          matchID: created.matchID,
          playerID,
          ...(playerID ? { credentials: created.credentials } : {}),
        }),
      );
      socket.on('restarting', (notice: RestartNotice) => notices.set(socket, notice));
      return socket;
    };
    const synced = (socket: Socket) => new Promise((resolve) => socket.once('sync', resolve));
    const player = connect('0');
    const crowd = Array.from({ length: 20 }, () => connect(null));
    await Promise.all([player, ...crowd].map(synced));

    await server.app.close(700);
    running = undefined;
    await until(() => notices.size === 21, 'every notice');
    for (const socket of [player, ...crowd]) socket.close();
    fs.rmSync(server.config.DATA_DIR, { recursive: true, force: true });
    return { player: notices.get(player), crowd: crowd.map((s) => notices.get(s)) };
  }
  // 700 ms for the successor, 0.3 ms per socket for this stop; spread 0.5 ms per spectator.
  const afterSuccessor = Array(20).fill({ backInMs: 706, spreadMs: 10 });
  const atOnce = { backInMs: 0, spreadMs: 0 };

  it('tells a seated player to come back at once, and the crowd after the stop and the successor start, spread by its size', async () => {
    const { player, crowd } = await noticesAtStop(await startServer());
    expect(player).toEqual(atOnce);
    expect(crowd).toEqual(afterSuccessor);
  }, 30_000);

  it('a server with a live peer tells its crowd to come back at once (to the peer), still spread', async () => {
    const instance = redisGroup();
    peers.push(await instance());
    const { player, crowd } = await noticesAtStop(await startServer({ fanout: await instance() }));
    expect(player).toEqual(atOnce);
    expect(crowd).toEqual(Array(20).fill({ backInMs: 0, spreadMs: 10 }));
  }, 30_000);

  it('a lone server with Redis still tells its crowd to wait for its successor', async () => {
    const { crowd } = await noticesAtStop(await startServer({ fanout: await redisGroup()() }));
    expect(crowd).toEqual(afterSuccessor);
  }, 30_000);

  it('a peer whose heartbeat expired (killed) does not count: the crowd waits for the successor', async () => {
    const instance = redisGroup();
    const time = new ManualTime();
    const fanout = await instance(time);
    // The peer's clock stands still, and its heartbeat with it; this server's beats on.
    peers.push(await instance(new ManualTime(time.now())));
    time.advance(ALIVE_MS + 1);
    const { crowd } = await noticesAtStop(await startServer({ fanout }));
    expect(crowd).toEqual(afterSuccessor);
  }, 30_000);

  it('brings a web client back soon after its successor listens, not after the doubled backoff', async () => {
    const first = await startServer();
    const port = new URL(first.url).port;
    const { created } = await createAndJoin(first.url);
    const transport = socketTransport(created.matchID, first.url);
    let connects = 0;
    let attempts = 0;
    transport.onConnect(() => {
      connects += 1;
    });
    transport.onReconnecting(() => {
      attempts += 1;
    });
    transport.open();
    await until(() => connects === 1, 'the first connection');

    // A spectator's notice (the crowd's): back after 200 ms, then retrying every 125-375 ms.
    await first.app.close(200);
    // Down for 3 s: socket.io's own backoff (250 ms doubled, jitter 0.5) makes at most 5
    // attempts in that time and may next try seconds after the successor listens.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const dataDir = first.config.DATA_DIR;
    running = await startServer({ stores: openSqliteStores(dataDir), env: { PORT: port } });
    const listening = performance.now();
    await until(() => connects === 2, 'the client to come back');
    const backAfter = performance.now() - listening;

    // Each attempt is told twice (its start and its failure): at least 7 on the cadence.
    expect(attempts).toBeGreaterThanOrEqual(12);
    expect(backAfter).toBeLessThan(1000);
    transport.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);
});
