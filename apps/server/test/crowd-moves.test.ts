import type { Seat } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CROWD_SLICE } from '../src/match/seat-sessions.ts';
import { Crowd } from './crowd.ts';
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

/**
 * A move in a match a crowd watches (issue 38): the mover's acknowledgement waited for the
 * whole fan-out to the crowd. The seats are sent the move first, then the mover is answered,
 * then the crowd, in slices that let other work in between.
 */
describe('a move in a watched match', () => {
  // Enough spectators for the crowd's fan-out to take more than one slice.
  const K = 2 * CROWD_SLICE + 50;
  let server: TestServer;
  let seats: Record<Seat, GameClient>;
  let crowd: Crowd;

  beforeAll(async () => {
    server = await startServer();
    const { created, joined } = await createAndJoin(server.url);
    const { matchID } = created;
    seats = {
      '0': await seatClient(server.url, matchID, '0', created.credentials),
      '1': await seatClient(server.url, matchID, '1', joined.credentials),
    };
    crowd = await Crowd.join(server.url, matchID, K);
  }, 60_000);

  afterAll(async () => {
    crowd?.close();
    for (const seat of Object.values(seats ?? {})) seat.close();
    await server?.close();
  });

  it("the mover's acknowledgement and the opponent's update arrive before the whole crowd has the move", async () => {
    const random = prng(3);
    for (let round = 0; round < 3; round++) {
      const mover = decider(seats['0']) as Seat;
      const opponent = seats[mover === '0' ? '1' : '0'];
      const stateID = (seats[mover].state?.stateID ?? 0) + 1;
      const updatesBefore = crowd.frames.update ?? 0;
      const crowdHad = () => (crowd.frames.update ?? 0) - updatesBefore;
      let crowdHadAtOpponent = -1;
      opponent.socket.once('update', () => {
        crowdHadAtOpponent = crowdHad();
      });
      const ack = await seats[mover].move(pickMove(seats[mover], random));
      // Taken as the acknowledgement is handled, before any later frame is.
      const crowdHadAtAck = crowdHad();
      expect(ack).toEqual({ ok: true });
      expect(crowdHadAtAck).toBeLessThan(K);
      await opponent.until(() => opponent.state?.stateID === stateID, `the opponent at ${stateID}`);
      expect(crowdHadAtOpponent).toBeGreaterThanOrEqual(0);
      expect(crowdHadAtOpponent).toBeLessThan(K);
      // And the whole crowd has it soon after, as an update on the state it held.
      await crowd.until(
        () => (crowd.frames.update ?? 0) - updatesBefore === K,
        `all ${K} spectators sent state ${stateID}`,
      );
      expect(crowd.frames.sync).toBe(K);
    }
  });

  it("a newcomer's sync carries the whole log as stored, the moves made since the crowd joined included", async () => {
    const { matchID } = seats['0'];
    const stored = (await server.stores.matches.readMoves(matchID)).flatMap((m) => m.entries);
    expect(stored.length).toBeGreaterThan(0);
    const newcomer = await seatClient(server.url, matchID, null);
    try {
      expect(newcomer.state?.stateID).toBe(seats['0'].state?.stateID);
      expect(newcomer.log).toEqual(stored);
      // The seats, who followed every update, hold the same log.
      expect(seats['0'].log).toEqual(stored);
    } finally {
      newcomer.close();
    }
  });
});
