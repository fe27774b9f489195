import { apiRoutes, type CreateMatchResponse, type MatchList } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HANDOVER_FAILURES_PER_ADDRESS } from '../src/lobby/handovers.ts';
import { request, startServer, type TestServer } from './support.ts';

const LIMIT = 3;
const FLOODER = '203.0.113.7';
const NEIGHBOUR = '198.51.100.9';

let server: TestServer;
beforeAll(async () => {
  // Behind a proxy the client's address comes from X-Forwarded-For: tests can be two clients.
  server = await startServer({
    env: { LOBBY_WRITES_PER_MINUTE: String(LIMIT), TRUST_PROXY: 'true' },
  });
});
afterAll(async () => {
  await server.close();
});

const from = (address: string) => ({ 'x-forwarded-for': address });
const create = (address: string, name: string) =>
  request<CreateMatchResponse>(
    `${server.url}/api/matches`,
    'POST',
    { name, visibility: 'public' },
    from(address),
  );

describe('a client flooding the lobby with writes', () => {
  it('is refused with 429 and a Retry-After once its budget is spent; nothing refused is stored', async () => {
    for (let i = 0; i < LIMIT; i++) expect((await create(FLOODER, `Ann ${i}`)).status).toBe(201);

    const refused = await fetch(`${server.url}/api/matches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(FLOODER) },
      body: JSON.stringify({ name: 'Ann again', visibility: 'public' }),
    });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED' } });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);

    const waiting = await request<MatchList>(`${server.url}/api/matches?status=waiting`, 'GET');
    expect(waiting.status).toBe(200);
    const names = waiting.body.matches.flatMap((m) => m.players.map((p) => p.name));
    expect(names.filter((n) => n?.startsWith('Ann')).sort()).toEqual(['Ann 0', 'Ann 1', 'Ann 2']);
    // Every write counts, a join as much as a new match.
    const join = await request(
      `${server.url}/api/matches/${waiting.body.matches[0]?.matchID}/join`,
      'POST',
      { name: 'Boris' },
      from(FLOODER),
    );
    expect(join.status).toBe(429);
  });

  it('cannot dodge the count with an address of its own in X-Forwarded-For', async () => {
    const spoofed = await request(
      `${server.url}/api/matches`,
      'POST',
      { name: 'Ann disguised' },
      { 'x-forwarded-for': `192.0.2.55, ${FLOODER}` },
    );
    expect(spoofed.status).toBe(429);
  });

  it('still takes its games over with a right handover code: redeeming has its own limit', async () => {
    const giver = '198.51.100.77';
    const created = await create(giver, 'Dana');
    const handed = await request<{ code: string }>(
      `${server.url}${apiRoutes.handovers}`,
      'POST',
      {
        seats: [
          { matchID: created.body.matchID, seat: '0', credentials: created.body.credentials },
        ],
      },
      from(giver),
    );
    expect(handed.status).toBe(201);
    expect((await create(FLOODER, 'Ann once more')).status).toBe(429);
    const taken = await request(
      `${server.url}${apiRoutes.handoverRedeem}`,
      'POST',
      { code: handed.body.code },
      from(FLOODER),
    );
    expect(taken.status).toBe(200);
  });

  it('still reads the lobby, and other addresses still write', async () => {
    const list = await request(`${server.url}/api/matches`, 'GET', undefined, from(FLOODER));
    expect(list.status).toBe(200);
    expect((await create(NEIGHBOUR, 'Carla')).status).toBe(201);
  });
});

describe('the write limit, whatever the spelling of the path', () => {
  // Every route that writes, with a match id that does not exist: the limit is spent before
  // the handler runs, so each attempt counts whatever the handler would answer. Redeeming a
  // handover code has a limit of its own on failed tries instead (a right code always opens).
  const writeRoutes = [
    apiRoutes.matches,
    apiRoutes.botMatches,
    apiRoutes.decks,
    apiRoutes.join.path('NoSuchMatch1'),
    apiRoutes.leave.path('NoSuchMatch1'),
    apiRoutes.rematch.path('NoSuchMatch1'),
    apiRoutes.claim.path('NoSuchMatch1'),
    apiRoutes.myGames,
    apiRoutes.handovers,
    apiRoutes.pushSubscriptions,
  ];
  const limits = new Map<string, number>([
    ...writeRoutes.map((route): [string, number] => [route, LIMIT]),
    [apiRoutes.handoverRedeem, HANDOVER_FAILURES_PER_ADDRESS],
  ]);
  const mixedCase = (path: string) =>
    [...path].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join('');
  const spellings = {
    lower: (path: string) => path,
    upper: (path: string) => path.toUpperCase(),
    mixed: mixedCase,
    'upper, with a trailing slash': (path: string) => `${path.toUpperCase()}/`,
  };
  const post = (path: string, address: string) =>
    request(`${server.url}${path}`, 'POST', { bad: true }, from(address));

  let next = 1;
  for (const [route, limit] of limits) {
    for (const [spelling, spell] of Object.entries(spellings)) {
      it(`counts POST ${spell(route)} (${spelling}) and refuses it past the limit`, async () => {
        const address = `198.18.0.${next++}`;
        for (let i = 0; i < limit; i++) {
          const answer = await post(spell(route), address);
          // The router serves the spelling: the handler answers, not the web client's 404.
          expect(answer.status, answer.text).not.toBe(429);
          expect(answer.text).toContain('"error"');
        }
        const refused = await post(spell(route), address);
        expect(refused.status, refused.text).toBe(429);
        expect(refused.body).toMatchObject({ error: { code: 'RATE_LIMITED' } });
      });
    }
  }

  it('counts the spellings of one address together', async () => {
    const address = '198.18.1.1';
    const route = apiRoutes.matches;
    const answers = [];
    for (const spell of [spellings.lower, spellings.upper, spellings.mixed, spellings.upper]) {
      answers.push((await post(spell(route), address)).status);
    }
    expect(answers.slice(0, LIMIT)).not.toContain(429);
    expect(answers.slice(LIMIT)).toEqual([429]);
  });
});
