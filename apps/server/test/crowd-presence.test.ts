import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Crowd } from './crowd.ts';
import {
  createAndJoin,
  type GameClient,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

/**
 * Presence with a crowd watching (issue 38): what holds however presence is sent, a storm
 * of one frame per join to everyone or a count coalesced per match.
 */
describe('presence with a crowd watching', () => {
  const K = 60;
  let server: TestServer;
  let matchID: string;
  let seat0: GameClient;
  let credentials1: string;
  let crowd: Crowd;

  beforeAll(async () => {
    server = await startServer();
    const { created, joined } = await createAndJoin(server.url, { side: 'US' });
    matchID = created.matchID;
    credentials1 = joined.credentials;
    seat0 = await seatClient(server.url, matchID, '0', created.credentials);
    crowd = await Crowd.join(server.url, matchID, K);
  });

  afterAll(async () => {
    crowd?.close();
    seat0?.close();
    await server?.close();
  });

  it('a crowd is counted: once all have joined, every spectator and the seat are told how many watch', async () => {
    await crowd.until(
      () => crowd.toldCounts().every((n) => n === K),
      `every spectator told ${K} watch`,
    );
    await seat0.until(() => seat0.presence?.spectators === K, `the seat told ${K} watch`);
  });

  it('a crowd joining costs no more presence frames than one per join to everyone already there', () => {
    // K(K+1)/2 is the storm itself (issue 38): the bound a coalesced count must beat by far.
    expect(crowd.presenceFrames).toBeGreaterThan(0);
    expect(crowd.presenceFrames).toBeLessThanOrEqual((K * (K + 1)) / 2);
  });

  it("a seat's arrival and departure reach the other seat while the crowd watches", async () => {
    const seat1 = await seatClient(server.url, matchID, '1', credentials1);
    await seat0.until(
      () => seat0.presence?.players['1'].connected === true,
      'seat 1 shown connected to seat 0',
    );
    await seat1.until(
      () => seat1.presence?.players['0'].connected === true,
      'seat 0 shown connected to seat 1',
    );
    seat1.close();
    await seat0.until(
      () => seat0.presence?.players['1'].connected === false,
      'seat 1 shown gone to seat 0',
    );
  });

  it('spectators who leave are no longer counted', async () => {
    crowd.leave(K / 2);
    await crowd.until(
      () => crowd.toldCounts().every((n) => n === K / 2),
      `every remaining spectator told ${K / 2} watch`,
    );
    await seat0.until(() => seat0.presence?.spectators === K / 2, `the seat told ${K / 2} watch`);
  });
});
