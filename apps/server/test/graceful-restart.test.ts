import fs from 'node:fs';
import type { SyncMessage } from '@iron-curtain/protocol';
import { io } from 'socket.io-client';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteStore } from '../src/storage/sqlite.ts';
import { createAndJoin, startServer, type TestServer } from './support.ts';

let running: TestServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

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
    const until = async (done: () => boolean, what: string) => {
      for (let waited = 0; !done(); waited += 20) {
        if (waited > 15_000) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    await until(() => syncs.length === 1, 'the first sync');

    await first.app.close();
    const dataDir = first.config.DATA_DIR;
    running = await startServer({ store: openSqliteStore(dataDir), env: { PORT: port } });
    await until(() => syncs.length === 2, 'the client to come back');

    expect(reasons).toEqual(['transport close']);
    expect(syncs[1]?.state.stateID).toBe(syncs[0]?.state.stateID);
    expect(syncs[1]?.playerID).toBe('0');
    socket.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 30_000);
});
