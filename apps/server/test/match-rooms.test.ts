import type { Seat } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createAndJoin,
  pickMove,
  prng,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe("a match's room", () => {
  it('is dropped once its last viewer has gone, so rooms do not pile up with every match watched', async () => {
    const { created, joined } = await createAndJoin(server.url);
    const seats = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
    const decider = seats[seats['0'].view.decision?.seat as Seat];
    expect(await decider.move(pickMove(decider, prng(1)))).toEqual({ ok: true });
    expect(server.app.game.liveRooms).toBe(1);
    seats['0'].close();
    seats['1'].close();
    await vi.waitFor(() => expect(server.app.game.liveRooms).toBe(0));
    // Back again: a new room, which knows the match as stored.
    const back = await seatClient(server.url, created.matchID, '0', created.credentials);
    expect(back.state?.stateID).toBe(1);
    expect(server.app.game.liveRooms).toBe(1);
    back.close();
    await vi.waitFor(() => expect(server.app.game.liveRooms).toBe(0));
  });
});
