import type { Seat } from '@iron-curtain/game';
import type {
  ChallengeList,
  ErrorResponse,
  MatchInfo,
  MyGamesResponse,
} from '@iron-curtain/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { SWEEP_EVERY_MS } from '../src/lobby/deadline-sweep.ts';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  type GameClient,
  matchInfo,
  openTestStores,
  playTurn,
  prng,
  request,
  runningSeat,
  type StoreKind,
  seatClient,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const other = (seat: Seat): Seat => (seat === '0' ? '1' : '0');

/**
 * Moves the fake clock on a sweep's period at a time (each sweep is awaited by the next poll)
 * until the match has ended.
 */
async function sweptUntilEnded(server: TestServer, time: ManualTime, matchID: string) {
  await expect
    .poll(async () => {
      time.advance(SWEEP_EVERY_MS);
      return (await matchInfo(server, matchID)).status;
    })
    .toBe('finished');
}

describe.each(['sqlite', 'postgres'] as StoreKind[])(
  'correspondence play on the %s store',
  (kind) => {
    const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
    afterAll(async () => {
      if (kind === 'postgres') await dropSchema(where);
    });

    it('gives each turn the full days, and ends the match on time when a turn runs out', async () => {
      const time = new ManualTime();
      const server = await startServer({ stores: await openTestStores(kind, where), time });
      try {
        const { created, joined } = await createAndJoin(server.url, { daysPerTurn: 1 });
        const { matchID } = created;
        const starter = await runningSeat(server, matchID);
        const info = await matchInfo(server, matchID);
        expect(info.daysPerTurn).toBe(1);
        expect(info.clock).toMatchObject({ perPlayerMs: DAY, remainingMs: { [starter]: DAY } });
        const credentials = { '0': created.credentials, '1': joined.credentials };
        const next = other(starter);
        const seats = {
          [starter]: await seatClient(server.url, matchID, starter, credentials[starter]),
          [next]: await seatClient(server.url, matchID, next, credentials[next]),
        };
        // Most of the day goes by before the starter's turn is done, then half a day before
        // the other's: the starter's next turn has the whole day again, nothing banked.
        time.advance(20 * HOUR);
        await playTurn(seats[starter] as GameClient, prng(11));
        const handed = await matchInfo(server, matchID);
        expect(handed.clock?.running).toBe(next);
        // The seat that handed the turn over waits with a whole turn ahead, not what it left.
        expect(handed.clock?.remainingMs).toEqual({ '0': DAY, '1': DAY });
        time.advance(12 * HOUR);
        await playTurn(seats[next] as GameClient, prng(12));
        const back = await matchInfo(server, matchID);
        expect(back.clock?.running).toBe(starter);
        expect(back.clock?.remainingMs[starter]).toBe(DAY);
        for (const client of Object.values(seats)) client.close();

        // No timer is held for a deadline a day away: with nobody watching, its room goes.
        await expect.poll(() => server.app.game.liveRooms).toBe(0);
        time.skip(DAY - 1);
        expect(await server.app.deadlines.run()).toEqual({ due: 0, warned: 0 });
        expect((await matchInfo(server, matchID)).status).toBe('playing');
        time.skip(1);
        await sweptUntilEnded(server, time, matchID);
        expect((await matchInfo(server, matchID)).result).toEqual({
          winner: next,
          winnerSide: info.players[Number(next)]?.side,
          reason: 'timeout',
        });
      } finally {
        await server.close();
      }
    });

    it('ends a turn that ran out while the server was down, once it is back', async () => {
      const time = new ManualTime();
      const first = await startServer({ stores: await openTestStores(kind, where), time });
      const { created } = await createAndJoin(first.url, { daysPerTurn: 2 });
      const { matchID } = created;
      const starter = await runningSeat(first, matchID);
      await first.close();

      time.skip(2 * DAY + HOUR);
      const second = await startServer({ stores: await openTestStores(kind, where), time });
      try {
        // The deadline was in the store, not in a timer: the sweep finds it.
        await sweptUntilEnded(second, time, matchID);
        const ended = await matchInfo(second, matchID);
        expect(ended.result).toMatchObject({ winner: other(starter), reason: 'timeout' });
        expect(ended.clock?.running).toBeNull();
      } finally {
        await second.close();
      }
    });

    it('refuses a claim of the win from an absent opponent, and takes a resignation', async () => {
      const time = new ManualTime();
      const server = await startServer({ stores: await openTestStores(kind, where), time });
      try {
        const { created, joined } = await createAndJoin(server.url, { daysPerTurn: 3 });
        const { matchID } = created;
        await runningSeat(server, matchID);
        const claimer = await seatClient(server.url, matchID, '0', created.credentials);
        // My games tells the seat when the turn runs out.
        const mine = await request<MyGamesResponse>(`${server.url}/api/my-games`, 'POST', {
          seats: [{ matchID, seat: '0', credentials: created.credentials }],
        });
        expect(mine.body.games[0]).toMatchObject({
          deadline: new Date(time.now() + 3 * DAY).toISOString(),
        });
        // Far past the live grace period, with the opponent never connected.
        time.advance(DAY);
        const claim = await request<ErrorResponse>(
          `${server.url}/api/matches/${matchID}/claim`,
          'POST',
          { seat: '0', credentials: created.credentials },
        );
        expect(claim.status).toBe(409);
        expect(claim.body.error.code).toBe('NOT_CLAIMABLE');
        expect((await matchInfo(server, matchID)).status).toBe('playing');

        const left = await request<MatchInfo>(
          `${server.url}/api/matches/${matchID}/leave`,
          'POST',
          {
            seat: '1',
            credentials: joined.credentials,
          },
        );
        expect(left.body.result).toMatchObject({ winner: '0', reason: 'resigned' });
        await claimer.until(() => claimer.presence?.status === 'finished', 'the resignation');
        claimer.close();
      } finally {
        await server.close();
      }
    });

    it('keeps a match in play whose turn is not over, however long untouched; removes a live one', async () => {
      const time = new ManualTime();
      const server = await startServer({
        stores: await openTestStores(kind, where),
        time,
        env: { UNFINISHED_MATCH_DAYS: '1' },
      });
      try {
        const correspondence = (await createAndJoin(server.url, { daysPerTurn: 7 })).created
          .matchID;
        const starter = await runningSeat(server, correspondence);
        const live = (await createAndJoin(server.url)).created.matchID;
        // Some of the lobby's stamps come from the real clock: let the fake one pass both.
        time.skip(Math.max(0, Date.now() - time.now()) + 3 * DAY);
        const removed = await server.app.cleanup.run();
        expect(removed?.map((m) => m.matchID)).toContain(live);
        expect(removed?.map((m) => m.matchID)).not.toContain(correspondence);
        expect((await matchInfo(server, correspondence)).status).toBe('playing');

        time.skip(4 * DAY);
        await sweptUntilEnded(server, time, correspondence);
        expect((await matchInfo(server, correspondence)).result?.winner).toBe(other(starter));
      } finally {
        await server.close();
      }
    });

    it('lists a correspondence challenge with its days per turn, and refuses bad days', async () => {
      const server = await startServer({ stores: await openTestStores(kind, where) });
      try {
        const create = (body: Record<string, unknown>) =>
          request<ErrorResponse>(`${server.url}/api/matches`, 'POST', { name: 'Ann', ...body });
        const four = await create({ daysPerTurn: 4 });
        expect(four.status).toBe(400);
        expect(four.text).toContain('days per turn: 1, 2, 3, 5 or 7');
        const both = await create({ daysPerTurn: 2, clockMinutes: 10 });
        expect(both.status).toBe(400);
        expect(both.text).toContain('minutes per player or days per turn, not both');
        expect((await create({ daysPerTurn: '2' })).status).toBe(400);

        const open = await create({ daysPerTurn: 5, visibility: 'open' });
        expect(open.status).toBe(201);
        const { challenges } = (await request<ChallengeList>(`${server.url}/api/challenges`, 'GET'))
          .body;
        expect(challenges).toHaveLength(1);
        expect(challenges[0]).toMatchObject({ daysPerTurn: 5, clockMinutes: null });
      } finally {
        await server.close();
      }
    });
  },
);
