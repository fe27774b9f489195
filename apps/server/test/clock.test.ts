import type { Seat } from '@iron-curtain/game';
import type { ClockState, MatchInfo } from '@iron-curtain/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  decider,
  dropSchema,
  type GameClient,
  openTestStores,
  pickMove,
  prng,
  request,
  type StoreKind,
  seatClient,
  startServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const other = (seat: Seat): Seat => (seat === '0' ? '1' : '0');
const clockOf = (client: GameClient) => (client.state as { clock?: ClockState } | undefined)?.clock;

describe.each(['sqlite', 'postgres'] as StoreKind[])('the turn clock on the %s store', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  afterAll(async () => {
    if (kind === 'postgres') await dropSchema(where);
  });

  it('charges each decision to its seat, survives a restart, and ends the match on timeout', async () => {
    const time = new ManualTime();
    const first = await startServer({ stores: await openTestStores(kind, where), time });
    const { created, joined } = await createAndJoin(first.url, { clockMinutes: 1 });
    const { matchID } = created;
    const seats = {
      '0': await seatClient(first.url, matchID, '0', created.credentials),
      '1': await seatClient(first.url, matchID, '1', joined.credentials),
    };
    await seats['0'].until(() => clockOf(seats['0'])?.running != null, 'a running clock');
    const starter = decider(seats['0']) as Seat;
    expect(clockOf(seats['0'])).toEqual({
      perPlayerMs: 60_000,
      remainingMs: { '0': 60_000, '1': 60_000 },
      running: starter,
    });

    time.advance(20_000);
    const mover = seats[starter];
    const ack = await mover.move(pickMove(mover, prng(5)));
    expect(ack).toEqual({ ok: true });
    await seats['1'].until(() => seats['1'].state?.stateID === 1, 'the move');
    const afterMove = clockOf(seats['1']);
    const running = decider(seats['1']) as Seat;
    expect(afterMove?.remainingMs[starter]).toBe(40_000);
    expect(afterMove?.running).toBe(running);
    seats['0'].close();
    seats['1'].close();
    await first.close();

    // The server is down for 5 s: the running seat's time keeps going.
    time.advance(5_000);
    const second = await startServer({ stores: await openTestStores(kind, where), time });
    try {
      // The match's clock timer, re-armed on start, beside the old-match cleanup's and the
      // deadline sweep's. No session recheck: it is armed only while a signed-in socket is
      // connected, and none is.
      expect(time.pending).toBe(3);
      const watcher = await seatClient(second.url, matchID, null);
      const left = (running === starter ? 40_000 : 60_000) - 5_000;
      expect(clockOf(watcher)?.remainingMs[running]).toBe(left);
      expect(clockOf(watcher)?.running).toBe(running);

      time.advance(left - 1);
      const still = await request<MatchInfo>(`${second.url}/api/matches/${matchID}`, 'GET');
      expect(still.body.status).toBe('playing');
      time.advance(1);
      await watcher.until(() => watcher.presence?.status === 'finished', 'the timeout');
      expect(watcher.presence?.result).toMatchObject({ winner: other(running), reason: 'timeout' });
      expect(watcher.presence?.clock?.running).toBeNull();

      const late = await seatClient(
        second.url,
        matchID,
        running,
        running === '0' ? created.credentials : joined.credentials,
      );
      const refused = await late.move(pickMove(late, prng(6)));
      expect(refused.ok).toBe(false);
      watcher.close();
      late.close();
    } finally {
      await second.close();
    }
  });

  it('refuses a move made after the time ran out, even before the timer fired', async () => {
    const time = new ManualTime();
    const server = await startServer({ stores: await openTestStores(kind, where), time });
    try {
      const { created, joined } = await createAndJoin(server.url, { clockMinutes: 1 });
      const seats = {
        '0': await seatClient(server.url, created.matchID, '0', created.credentials),
        '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
      };
      await seats['0'].until(() => clockOf(seats['0'])?.running != null, 'a running clock');
      const starter = decider(seats['0']) as Seat;
      const info = await request<MatchInfo>(`${server.url}/api/matches/${created.matchID}`, 'GET');
      expect(info.body.clock?.running).toBe(starter);
      expect(
        await request(`${server.url}/api/matches`, 'POST', { name: 'Ann', clockMinutes: 0 }),
      ).toMatchObject({ status: 400 });
      time.skip(60_000);
      const refused = await seats[starter].move(pickMove(seats[starter], prng(7)));
      expect(refused.ok).toBe(false);
      await seats['0'].until(() => seats['0'].presence?.status === 'finished', 'the end');
      expect(seats['0'].presence?.result).toMatchObject({
        winner: other(starter),
        reason: 'timeout',
      });
      seats['0'].close();
      seats['1'].close();
    } finally {
      await server.close();
    }
  });
});
