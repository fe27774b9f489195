import { eachSeatPlayedACard, type Seat } from '@iron-curtain/game';
import { apiRoutes, type CreateMatchResponse, type SeatGrant } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { Browser } from './accounts/browser.ts';
import {
  decider,
  dropSchema,
  type GameClient,
  POSTGRES_URL,
  playTurn,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

const PUBLIC_URL = 'http://localhost:8000';

/** Plays a match until each seat has played a card (its end then counts). */
async function pastTheFirstCards(url: string, created: SeatGrant, joined: SeatGrant, seed: number) {
  const seats: Record<Seat, GameClient> = {
    '0': await seatClient(url, created.matchID, '0', created.credentials),
    '1': await seatClient(url, created.matchID, '1', joined.credentials),
  };
  try {
    const random = prng(seed);
    while (!eachSeatPlayedACard(seats['0'].view)) {
      const mover = seats[decider(seats['0']) as Seat];
      await playTurn(mover, random);
      const reached = mover.state?.stateID ?? 0;
      for (const client of [seats['0'], seats['1']]) {
        await client.until(() => (client.state?.stateID ?? -1) >= reached, 'the move');
      }
    }
  } finally {
    seats['0'].close();
    seats['1'].close();
  }
}

describe('rated matches ending at once on two instances sharing Postgres', () => {
  const schema = uniqueSchema();
  let servers: [TestServer, TestServer];
  /** The instance a match's k-th request goes to: each in turn. */
  const on = (k: number) => (k % 2 === 0 ? servers[0] : servers[1]).url;
  beforeAll(async () => {
    const start = async () =>
      startServer({ env: { PUBLIC_URL }, stores: await openPostgresStores(POSTGRES_URL, schema) });
    servers = [await start(), await start()];
  });
  afterAll(async () => {
    for (const server of servers ?? []) await server?.close();
    await dropSchema(schema);
  });

  it('counts every match of every player exactly once, in order: the games count is the matches played and the history chains with no gap', async () => {
    const players = await Promise.all(
      ['Ada', 'Ben', 'Cy', 'Dee'].map(async (name) => {
        const browser = new Browser(PUBLIC_URL);
        expect((await browser.signUp(servers[0].url, `${name}_rated`)).status).toBe(201);
        return browser;
      }),
    );
    // Every pair of the four, twice: each player is in six matches.
    const pairs: [number, number][] = [];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < players.length; i++) {
        for (let j = i + 1; j < players.length; j++) pairs.push(round ? [j, i] : [i, j]);
      }
    }
    const matches = [];
    for (const [k, [i, j]] of pairs.entries()) {
      const url = on(k);
      const creator = players[i] as Browser;
      const created = await creator.send<CreateMatchResponse>(
        `${url}${apiRoutes.matches}`,
        'POST',
        {
          name: 'Creator',
          rated: true,
          clockMinutes: 60,
        },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
      const joined = await (players[j] as Browser).send<SeatGrant>(
        `${url}/api/matches/${created.body.matchID}/join`,
        'POST',
        { name: 'Taker', invite },
      );
      expect(joined.status, JSON.stringify(joined.body)).toBe(200);
      await pastTheFirstCards(url, created.body, joined.body, k);
      matches.push({ created: created.body, joined: joined.body, k });
    }

    // Every match resigned at the same moment, alternately on either instance.
    const answers = await Promise.all(
      matches.map(({ created, joined, k }) => {
        const loser = k % 3 === 0 ? created : joined;
        return request(`${on(k + 1)}/api/matches/${created.matchID}/leave`, 'POST', {
          seat: loser.seat,
          credentials: loser.credentials,
        });
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(matches.map(() => 200));

    const stores = servers[1].stores;
    const accountsOf = new Map<string, string[]>();
    for (const { created } of matches) {
      const match = await stores.matches.getMatch(created.matchID);
      expect(match?.ratings?.length).toBe(2);
      for (const p of match?.players ?? []) {
        const id = p.accountID as string;
        accountsOf.set(id, [...(accountsOf.get(id) ?? []), created.matchID]);
      }
    }
    expect(accountsOf.size).toBe(4);
    for (const [accountID, played] of accountsOf) {
      const rating = await stores.ratings.ratingOf(accountID, 'live');
      expect(rating?.games).toBe(played.length);
      const history = await stores.ratings.historyOf(accountID, 'live');
      expect(history.map((h) => h.games)).toEqual(played.map((_, i) => i + 1));
      expect(new Set(history.map((h) => h.matchID))).toEqual(new Set(played));
      expect(history[0]?.before).toBe(1500);
      for (let i = 1; i < history.length; i++) {
        expect(history[i]?.before).toBe(history[i - 1]?.after);
      }
      expect(rating?.rating).toBe(history.at(-1)?.after);
    }
  });
});
