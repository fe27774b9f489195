import net from 'node:net';
import type { Seat } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOST_PER_TURN } from '../src/edge/upgrade-pace.ts';
import {
  createAndJoin,
  decider,
  type GameClient,
  pickMove,
  prng,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

const UPGRADE =
  'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: localhost\r\n' +
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';

/**
 * K connections open and accepted by the server, their upgrade requests not sent yet: `send()`
 * writes them all in one go, so the server reads them in one turn, as a crowd's (a final's
 * start, a restart) when the event loop was busy while they arrived.
 */
async function crowdAtTheDoor(server: TestServer, k: number) {
  const port = Number(new URL(server.url).port);
  let accepted = 0;
  const allAccepted = new Promise<void>((resolve) => {
    const count = () => {
      accepted += 1;
      if (accepted < k) return;
      server.app.http.off('connection', count);
      resolve();
    };
    server.app.http.on('connection', count);
  });
  const sockets = await Promise.all(
    Array.from(
      { length: k },
      () =>
        new Promise<net.Socket>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
          socket.once('error', reject);
        }),
    ),
  );
  await allAccepted;
  let upgraded = 0;
  let allIn: () => void = () => undefined;
  const everyoneIn = new Promise<void>((resolve) => (allIn = resolve));
  for (const socket of sockets) {
    socket.once('data', (chunk) => {
      if (chunk.toString().startsWith('HTTP/1.1 101')) upgraded += 1;
      if (upgraded === k) allIn();
    });
  }
  return {
    send: () => {
      for (const socket of sockets) socket.write(UPGRADE);
    },
    /** Resolves once every one of them was answered 101 Switching Protocols. */
    everyoneIn: () => everyoneIn,
    close: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * A crowd's handshakes arriving together (issue 38): handled in the turn they were read, a few
 * hundred of them held every other socket's messages for up to a second. They are let through a
 * few per turn of the event loop, the other sockets' messages handled between.
 */
describe("a crowd's handshakes arriving together", () => {
  const K = 400;
  let server: TestServer;
  let seats: Record<Seat, GameClient>;

  beforeAll(async () => {
    server = await startServer();
    const { created, joined } = await createAndJoin(server.url);
    seats = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
  });

  afterAll(async () => {
    for (const seat of Object.values(seats ?? {})) seat.close();
    await server?.close();
  });

  it("a crowd joining does not starve a seated player's move: it is answered before the crowd is all in", async () => {
    const crowd = await crowdAtTheDoor(server, K);
    const opened = { count: 0 };
    const countOpened = () => (opened.count += 1);
    server.app.game.io.engine.on('connection', countOpened);
    try {
      const mover = seats[decider(seats['0']) as Seat];
      crowd.send();
      const ack = await mover.move(pickMove(mover, prng(5)));
      // Taken as the acknowledgement is handled: the crowd's handshakes the server did first.
      const openedAtAck = opened.count;
      expect(ack).toEqual({ ok: true });
      expect(openedAtAck).toBeLessThan(K);
      // And the whole crowd gets in after all.
      await crowd.everyoneIn();
    } finally {
      server.app.game.io.engine.off('connection', countOpened);
      crowd.close();
    }
  });

  it('lets the handshakes through at most MOST_PER_TURN in a turn of the event loop, every one of them', async () => {
    const crowd = await crowdAtTheDoor(server, K);
    // The turn each handshake was opened in, counted by a tick in every turn's check phase
    // (the door lets its handshakes through from there too, one batch a turn).
    let turn = 0;
    let ticking = true;
    const tick = () => {
      turn += 1;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const perTurn = new Map<number, number>();
    const countOpened = () => perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
    server.app.game.io.engine.on('connection', countOpened);
    try {
      crowd.send();
      await crowd.everyoneIn();
      const counts = [...perTurn.values()];
      expect(counts.reduce((a, b) => a + b, 0)).toBe(K);
      expect(Math.max(...counts)).toBeLessThanOrEqual(MOST_PER_TURN);
    } finally {
      ticking = false;
      server.app.game.io.engine.off('connection', countOpened);
      crowd.close();
    }
  });
});
