import { eachSeatPlayedACard, type Seat } from '@iron-curtain/game';
import {
  apiRoutes,
  type CreateMatchResponse,
  type MatchInfo,
  type SeatGrant,
} from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './accounts/browser.ts';
import {
  decider,
  dropSchema,
  type GameClient,
  matchInfo,
  openTestStores,
  playOut,
  playTurn,
  prng,
  request,
  type StoreKind,
  seatClient,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const PUBLIC_URL = 'http://localhost:8000';

describe.each(['sqlite', 'postgres'] as StoreKind[])('rated play on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer;
  let ann: Browser;
  let boris: Browser;
  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL }, stores: await openTestStores(kind, where) });
    ann = new Browser(PUBLIC_URL);
    boris = new Browser(PUBLIC_URL);
    expect((await ann.signUp(server.url, `Ann_${kind}`)).status).toBe(201);
    expect((await boris.signUp(server.url, `Boris_${kind}`)).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    if (kind === 'postgres') await dropSchema(where);
  });

  const create = (who: Browser | null, body: Record<string, unknown>) => {
    const url = `${server.url}${apiRoutes.matches}`;
    const sent = { name: 'Ann', ...body };
    return who
      ? who.send<CreateMatchResponse>(url, 'POST', sent)
      : request<CreateMatchResponse & { error?: { code: string } }>(url, 'POST', sent);
  };
  const inviteOf = (created: CreateMatchResponse) =>
    decodeURIComponent(created.links.invite.split('#')[1] ?? '');
  const join = (who: Browser, created: CreateMatchResponse) =>
    who.send<SeatGrant>(`${server.url}/api/matches/${created.matchID}/join`, 'POST', {
      name: 'Boris',
      invite: inviteOf(created),
    });
  const leave = (grant: { matchID: string; seat: string; credentials: string }) =>
    request<MatchInfo>(`${server.url}/api/matches/${grant.matchID}/leave`, 'POST', {
      seat: grant.seat,
      credentials: grant.credentials,
    });
  /** A rated match Ann created and Boris joined, both signed in. */
  const ratedMatch = async (body: Record<string, unknown> = { clockMinutes: 30 }) => {
    const created = await create(ann, { rated: true, ...body });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const joined = await join(boris, created.body);
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    return { created: created.body, joined: joined.body };
  };
  const accountsOf = async (matchID: string) => {
    const match = await server.stores.matches.getMatch(matchID);
    return match?.players.map((p) => p.accountID) as [string, string];
  };

  it('rates both players from creation to the new ratings, told to the seats and spectators and kept in the history', async () => {
    const { created, joined } = await ratedMatch();
    const seats: Record<Seat, GameClient> = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
    const spectator = await seatClient(server.url, created.matchID, null);
    try {
      expect(seats['0'].presence?.rated).toBe(true);
      const random = prng(48);
      while (!eachSeatPlayedACard(seats['0'].view)) {
        const mover = seats[decider(seats['0']) as Seat];
        await playTurn(mover, random);
        const reached = mover.state?.stateID ?? 0;
        // Both seats see the turn's end before the next mover is picked from what they see.
        for (const client of [seats['0'], seats['1']]) {
          await client.until(() => (client.state?.stateID ?? -1) >= reached, 'the move');
        }
      }
      // Boris resigns: Ann wins.
      expect((await leave(joined)).status).toBe(200);
      for (const client of [seats['0'], seats['1'], spectator]) {
        await client.until(() => (client.presence?.ratings?.length ?? 0) === 2, 'the ratings');
      }
      const told = spectator.presence?.ratings ?? [];
      const [annID, borisID] = await accountsOf(created.matchID);
      const annRating = await server.stores.ratings.ratingOf(annID, 'live');
      const borisRating = await server.stores.ratings.ratingOf(borisID, 'live');
      expect(annRating?.games).toBe(1);
      expect(borisRating?.games).toBe(1);
      expect(annRating?.rating).toBeGreaterThan(1500);
      expect(borisRating?.rating).toBeLessThan(1500);
      // Both new players: equal and opposite changes, provisional at a deviation near 290.
      expect(told).toEqual([
        {
          seat: '0',
          before: 1500,
          after: Math.round(annRating?.rating ?? 0),
          change: Math.round(annRating?.rating ?? 0) - 1500,
          provisional: true,
        },
        {
          seat: '1',
          before: 1500,
          after: Math.round(borisRating?.rating ?? 0),
          change: Math.round(borisRating?.rating ?? 0) - 1500,
          provisional: true,
        },
      ]);
      expect(told[0]?.change).toBe(-(told[1]?.change ?? 0));
      expect((await server.stores.ratings.historyOf(annID, 'live')).map((h) => h.matchID)).toEqual([
        created.matchID,
      ]);
      expect(await server.stores.ratings.ratingOf(annID, 'correspondence')).toBeUndefined();
      const info = await matchInfo(server, created.matchID);
      expect(info).toMatchObject({ rated: true, pool: 'live', unrated: null, ratings: told });
    } finally {
      for (const client of [seats['0'], seats['1'], spectator]) client.close();
    }
  });

  it('rates a rated match the last move of the game ends, and tells the change with the end', async () => {
    const { created, joined } = await ratedMatch({ clockMinutes: 120 });
    const seats: Record<Seat, GameClient> = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
    try {
      await playOut(seats, [], prng(4848));
      for (const client of [seats['0'], seats['1']]) {
        await client.until(() => (client.presence?.ratings?.length ?? 0) === 2, 'the ratings');
      }
      const info = await matchInfo(server, created.matchID);
      const winner = info.result?.winner as Seat;
      expect(info.pool).toBe('live');
      expect(info.ratings?.find((r) => r.seat === winner)?.change).toBeGreaterThan(0);
      const [annID] = await accountsOf(created.matchID);
      expect((await server.stores.ratings.historyOf(annID, 'live')).at(-1)?.matchID).toBe(
        created.matchID,
      );
    } finally {
      for (const client of [seats['0'], seats['1']]) client.close();
    }
  });

  it('ends a rated match resigned before each seat played a card as aborted, and rates nobody', async () => {
    const { created, joined } = await ratedMatch({ daysPerTurn: 3 });
    expect((await leave(joined)).status).toBe(200);
    const info = await matchInfo(server, created.matchID);
    expect(info).toMatchObject({
      status: 'finished',
      result: null,
      rated: true,
      pool: 'correspondence',
      unrated: 'aborted',
      ratings: null,
    });
    const [annID] = await accountsOf(created.matchID);
    expect(await server.stores.ratings.ratingOf(annID, 'correspondence')).toBeUndefined();
  });

  it('refuses a rated seat to a guest, a rated match to a guest or against the computer, and keeps the seat free', async () => {
    const created = await create(ann, { rated: true });
    const guest = await request<{ error: { code: string } }>(
      `${server.url}/api/matches/${created.body.matchID}/join`,
      'POST',
      { name: 'Wanda', invite: inviteOf(created.body) },
    );
    expect(guest.status).toBe(403);
    expect(guest.body.error.code).toBe('RATED_SEAT_NEEDS_ACCOUNT');
    expect((await matchInfo(server, created.body.matchID)).players[1]?.name).toBeNull();

    const byGuest = await create(null, { rated: true });
    expect([byGuest.status, byGuest.body.error?.code]).toEqual([403, 'RATED_NEEDS_ACCOUNT']);
    const computer = await create(ann, { rated: true, opponent: 'easy' });
    expect([computer.status, computer.body.error?.code]).toEqual([400, 'RATED_NOT_ALLOWED']);
  });

  it('plays a match of one account on both seats unrated, and says so', async () => {
    const created = await create(ann, { rated: true });
    const joined = await join(ann, created.body);
    expect(joined.status).toBe(200);
    expect(await matchInfo(server, created.body.matchID)).toMatchObject({
      rated: true,
      unrated: 'same-account',
    });
  });
});
