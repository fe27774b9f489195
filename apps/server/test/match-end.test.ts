import type { Seat } from '@iron-curtain/game';
import type { MatchInfo } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  decider,
  type GameClient,
  pickMove,
  playOut,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

const other = (seat: Seat): Seat => (seat === '0' ? '1' : '0');

let server: TestServer;
const time = new ManualTime();
beforeAll(async () => {
  server = await startServer({ time, env: { ABANDON_GRACE_SECONDS: '60' } });
});
afterAll(async () => {
  await server.close();
});

interface Table {
  matchID: string;
  credentials: Record<Seat, string>;
  seats: Record<Seat, GameClient>;
  /** The seat whose time runs now. */
  running: Seat;
}

/** A match with a clock, both seats connected, its clock running. */
async function clockedTable(clockMinutes: number): Promise<Table> {
  const { created, joined } = await createAndJoin(server.url, { clockMinutes });
  const { matchID } = created;
  const credentials = { '0': created.credentials, '1': joined.credentials };
  const seats = {
    '0': await seatClient(server.url, matchID, '0', credentials['0']),
    '1': await seatClient(server.url, matchID, '1', credentials['1']),
  };
  for (const client of [seats['0'], seats['1']]) {
    await client.until(() => {
      const { presence } = client;
      return (
        presence?.clock?.running != null &&
        presence.players['0'].connected &&
        presence.players['1'].connected
      );
    }, 'both seats connected and a running clock');
  }
  return { matchID, credentials, seats, running: decider(seats['0']) as Seat };
}

const infoOf = async (matchID: string) =>
  (await request<MatchInfo>(`${server.url}/api/matches/${matchID}`, 'GET')).body;

/**
 * The match has ended as expected, a player was told, and its stored clock no longer runs:
 * time passing changes nothing.
 */
async function expectStoppedClock(matchID: string, player: GameClient, reason: string) {
  await player.until(() => player.presence?.status === 'finished', 'the end pushed to a player');
  const atEnd = await infoOf(matchID);
  expect(atEnd.status).toBe('finished');
  expect(atEnd.result?.reason).toBe(reason);
  expect(atEnd.clock?.running).toBeNull();
  expect(player.presence?.clock?.running).toBeNull();
  time.advance(30_000);
  expect((await infoOf(matchID)).clock).toEqual(atEnd.clock);
}

const leaveTable = (table: Table) => {
  table.seats['0'].close();
  table.seats['1'].close();
};

describe('every way a match ends stops its clock', () => {
  it('a resignation (the seat leaves the match in play)', async () => {
    const table = await clockedTable(5);
    time.advance(10_000);
    const left = await request<MatchInfo>(
      `${server.url}/api/matches/${table.matchID}/leave`,
      'POST',
      { seat: table.running, credentials: table.credentials[table.running] },
    );
    expect(left.status).toBe(200);
    expect(left.body.result).toMatchObject({ winner: other(table.running), reason: 'resigned' });
    await expectStoppedClock(table.matchID, table.seats[other(table.running)], 'resigned');
    leaveTable(table);
  });

  it('a claim after the opponent stayed away past the grace period', async () => {
    const table = await clockedTable(5);
    const away = table.running;
    table.seats[away].close();
    const stays = table.seats[other(away)];
    await stays.until(() => stays.presence?.players[away].connected === false, 'the seat gone');
    time.advance(61_000);
    const claimed = await request<MatchInfo>(
      `${server.url}/api/matches/${table.matchID}/claim`,
      'POST',
      { seat: other(away), credentials: table.credentials[other(away)] },
    );
    expect(claimed.body).toMatchObject({ status: 'finished' });
    await expectStoppedClock(table.matchID, stays, 'abandoned');
    leaveTable(table);
  });

  it("a claim on the opponent's fallen flag, before this server's timer fired", async () => {
    const table = await clockedTable(1);
    time.skip(61_000);
    const claimed = await request<MatchInfo>(
      `${server.url}/api/matches/${table.matchID}/claim`,
      'POST',
      { seat: other(table.running), credentials: table.credentials[other(table.running)] },
    );
    expect(claimed.status).toBe(200);
    expect(claimed.body.result).toMatchObject({ winner: other(table.running), reason: 'timeout' });
    await expectStoppedClock(table.matchID, table.seats['0'], 'timeout');
    leaveTable(table);
  });

  it("the server's own timer when the running seat's time is up", async () => {
    const table = await clockedTable(1);
    time.advance(60_000);
    await expectStoppedClock(table.matchID, table.seats['0'], 'timeout');
    leaveTable(table);
  });

  it('the last move of the game (a track win or final scoring)', async () => {
    const table = await clockedTable(60);
    await playOut(table.seats, [], prng(4242));
    const reason = table.seats['0'].gameover?.reason;
    expect(reason === 'track' || reason === 'final').toBe(true);
    await expectStoppedClock(table.matchID, table.seats['0'], reason as string);
    leaveTable(table);
  });
});

describe('a match that ended takes no more moves', () => {
  it('after a resignation, though this instance remembers the state its last move stored', async () => {
    const table = await clockedTable(5);
    const random = prng(77);
    for (let n = 0; n < 2; n++) {
      const mover = table.seats[decider(table.seats['0']) as Seat];
      const stateID = mover.state?.stateID ?? 0;
      expect(await mover.move(pickMove(mover, random))).toEqual({ ok: true });
      for (const seat of [table.seats['0'], table.seats['1']]) {
        await seat.until(() => (seat.state?.stateID ?? 0) > stateID, 'the move applied');
      }
    }
    const next = decider(table.seats['0']) as Seat;
    const mover = table.seats[next];
    const move = pickMove(mover, random);
    const left = await request<MatchInfo>(
      `${server.url}/api/matches/${table.matchID}/leave`,
      'POST',
      { seat: other(next), credentials: table.credentials[other(next)] },
    );
    expect(left.status).toBe(200);
    expect(await mover.move(move)).toMatchObject({
      ok: false,
      error: { code: 'MATCH_OVER' },
    });
    await expectStoppedClock(table.matchID, mover, 'resigned');
    leaveTable(table);
  });
});
