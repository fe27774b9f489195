import type { Seat } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROWD_SLICE } from '../src/match/crowd-slices.ts';
import { WATCH_BATCH } from '../src/match/seat-sessions.ts';
import { Crowd } from './crowd.ts';
import {
  createAndJoin,
  type GameClient,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

/**
 * A crowd's syncs asked together (issue 38): handled as one batch, whose sync frames and chat
 * histories were each written to all of it in one turn of the event loop (250 sockets, 14-23 ms
 * on a 2-core machine), and every other match's move read meanwhile waited for all of them.
 */
describe("a crowd's syncs asked together", () => {
  const K = WATCH_BATCH;
  let server: TestServer;
  let seats: Record<Seat, GameClient>;
  let matchID: string;

  beforeAll(async () => {
    server = await startServer();
    const { created, joined } = await createAndJoin(server.url);
    matchID = created.matchID;
    seats = {
      '0': await seatClient(server.url, matchID, '0', created.credentials),
      '1': await seatClient(server.url, matchID, '1', joined.credentials),
    };
  });

  afterAll(async () => {
    for (const seat of Object.values(seats ?? {})) seat.close();
    await server?.close();
  });

  it('writes their sync frames and chat histories at most CROWD_SLICE a turn of the event loop, every one of them', async () => {
    // The turn each frame was written in, counted by a tick in every turn's check phase.
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const written = { sync: new Map<number, number>(), chat: new Map<number, number>() };
    const count = (packet: { data?: unknown }) => {
      if (typeof packet.data !== 'string') return;
      for (const event of ['sync', 'chat'] as const) {
        if (!packet.data.includes(`,["${event}",`)) continue;
        written[event].set(turn, (written[event].get(turn) ?? 0) + 1);
      }
    };
    const watchPackets = (socket: { on: (e: 'packetCreate', f: typeof count) => void }) =>
      socket.on('packetCreate', count);
    server.app.game.io.engine.on('connection', watchPackets);
    let crowd: Crowd | undefined;
    try {
      crowd = await Crowd.join(server.url, matchID, K, { together: true });
      await crowd.until(() => crowd?.frames.chat === K, `all ${K} sent their chat history`);
      for (const event of ['sync', 'chat'] as const) {
        const perTurn = [...written[event].values()];
        expect(perTurn.reduce((a, b) => a + b, 0)).toBe(K);
        expect(Math.max(...perTurn)).toBeLessThanOrEqual(CROWD_SLICE);
      }
      expect(crowd.frames.sync).toBe(K);
    } finally {
      ticking = false;
      server.app.game.io.engine.off('connection', watchPackets);
      crowd?.close();
    }
  });
});
