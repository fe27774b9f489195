import {
  type CreateMatchResponse,
  deckListSchema,
  errorResponseSchema,
  matchInfoSchema,
  parseInviteLink,
} from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/ops/config.ts';
import { request, startServer, type TestServer } from './support.ts';

let server: TestServer;
let api: string;
beforeAll(async () => {
  server = await startServer();
  api = `${server.url}/api`;
});
afterAll(async () => {
  await server.close();
});

async function expectError(
  answer: Promise<{ status: number; body: unknown }>,
  status: number,
  code: string,
) {
  const { status: got, body } = await answer;
  expect(got).toBe(status);
  const error = errorResponseSchema.parse(body).error;
  expect(error.code).toBe(code);
  expect(error.message.length).toBeGreaterThan(0);
  return error;
}

async function create(body: Record<string, unknown> = {}) {
  const answer = await request<CreateMatchResponse>(`${api}/matches`, 'POST', {
    name: 'Ann',
    ...body,
  });
  expect(answer.status).toBe(201);
  const link = new URL(answer.body.links.invite, 'http://x');
  const invite = parseInviteLink(link.pathname, link.hash);
  expect(invite?.matchID).toBe(answer.body.matchID);
  return { ...answer.body, invite: invite?.invite as string };
}

describe('the lobby API', () => {
  it('creates a match with the chosen side, variants and visibility', async () => {
    const m = await create({
      side: 'USSR',
      visibility: 'public',
      variants: { aftermathCap: null, finalScoringOrder: 'polish' },
    });
    expect(m.side).toBe('USSR');
    expect(m.credentials.length).toBeGreaterThanOrEqual(22);
    const info = matchInfoSchema.parse((await request(`${api}/matches/${m.matchID}`, 'GET')).body);
    expect(info).toMatchObject({
      status: 'waiting',
      visibility: 'public',
      variants: { aftermathCap: null, finalScoringOrder: 'polish' },
      players: [
        { seat: '0', side: 'USSR', name: 'Ann', connected: false },
        { seat: '1', side: 'US', name: null, connected: false },
      ],
      result: null,
    });
    const decks = deckListSchema.parse((await request(`${api}/decks`, 'GET')).body).decks;
    expect(info.deck).toEqual(decks[0]);
  });

  it('deals a random side when asked, both sides over many matches', async () => {
    const sides = new Set<string>();
    for (let i = 0; i < 24; i++) sides.add((await create({ side: 'random' })).side);
    expect(sides).toEqual(new Set(['US', 'USSR']));
  });

  it('joins by invite once; a second join gets 409, a wrong invite 403', async () => {
    const m = await create();
    await expectError(
      request(`${api}/matches/${m.matchID}/join`, 'POST', { name: 'Eve', invite: 'x'.repeat(24) }),
      403,
      'BAD_INVITE',
    );
    const joined = await request(`${api}/matches/${m.matchID}/join`, 'POST', {
      name: 'Boris',
      invite: m.invite,
    });
    expect(joined.status).toBe(200);
    expect(joined.body).toMatchObject({ matchID: m.matchID, seat: '1' });
    expect((joined.body as { credentials: string }).credentials).not.toBe(m.credentials);
    await expectError(
      request(`${api}/matches/${m.matchID}/join`, 'POST', { name: 'Carl', invite: m.invite }),
      409,
      'MATCH_FULL',
    );
  });

  it('lists public matches only, filtered by status', async () => {
    const pub = await create({ visibility: 'public' });
    const priv = await create({ visibility: 'private' });
    const listed = await request<{ matches: { matchID: string; status: string }[] }>(
      `${api}/matches?status=waiting&limit=100`,
      'GET',
    );
    const ids = listed.body.matches.map((m) => m.matchID);
    expect(ids).toContain(pub.matchID);
    expect(ids).not.toContain(priv.matchID);
    expect(listed.body.matches.every((m) => m.status === 'waiting')).toBe(true);
    const playing = await request<{ matches: { matchID: string }[] }>(
      `${api}/matches?status=playing`,
      'GET',
    );
    expect(playing.body.matches.map((m) => m.matchID)).not.toContain(pub.matchID);
  });

  it('leaving a waiting match closes it; only its own credentials may', async () => {
    const m = await create();
    await expectError(
      request(`${api}/matches/${m.matchID}/leave`, 'POST', {
        seat: '0',
        credentials: 'y'.repeat(32),
      }),
      403,
      'BAD_CREDENTIALS',
    );
    await expectError(
      request(`${api}/matches/${m.matchID}/leave`, 'POST', {
        seat: '1',
        credentials: m.credentials,
      }),
      403,
      'BAD_CREDENTIALS',
    );
    const left = await request(`${api}/matches/${m.matchID}/leave`, 'POST', {
      seat: '0',
      credentials: m.credentials,
    });
    expect(matchInfoSchema.parse(left.body)).toMatchObject({ status: 'finished', result: null });
    await expectError(
      request(`${api}/matches/${m.matchID}/join`, 'POST', { name: 'Late', invite: m.invite }),
      409,
      'MATCH_FULL',
    );
  });

  it.each([
    ['an empty name', { name: '  ' }, /name/],
    ['an unknown side', { name: 'A', side: 'NATO' }, /side/],
    ['an unknown field', { name: 'A', admin: true }, /admin|unrecognized/i],
    ['a bad variant', { name: 'A', variants: { aftermathCap: 4 } }, /aftermathCap/],
  ])('refuses %s with 400 and says why', async (_, body, why) => {
    const error = await expectError(request(`${api}/matches`, 'POST', body), 400, 'BAD_REQUEST');
    expect(error.message).toMatch(why);
  });

  it('refuses unknown decks, bad JSON, other media types and large bodies', async () => {
    await expectError(
      request(`${api}/matches`, 'POST', { name: 'A', deckId: 'nope' }),
      400,
      'UNKNOWN_DECK',
    );
    await expectError(request(`${api}/matches`, 'POST', '{"name":'), 400, 'BAD_JSON');
    await expectError(
      request(`${api}/matches`, 'POST', undefined, { 'content-type': 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    await expectError(
      request(`${api}/matches`, 'POST', { name: 'A', pad: 'z'.repeat(10_000) }),
      413,
      'TOO_LARGE',
    );
  });

  it('answers unknown matches, bad ids, bad queries and unknown routes with JSON errors', async () => {
    await expectError(request(`${api}/matches/nosuchmatch123`, 'GET'), 404, 'NOT_FOUND');
    await expectError(request(`${api}/matches/bad!id`, 'GET'), 400, 'BAD_REQUEST');
    await expectError(request(`${api}/matches?status=lost`, 'GET'), 400, 'BAD_REQUEST');
    await expectError(request(`${api}/matches?limit=1000`, 'GET'), 400, 'BAD_REQUEST');
    await expectError(request(`${api}/nothing`, 'GET'), 404, 'NOT_FOUND');
  });

  it('reports health and readiness; metrics only on the operator port, never the public one', async () => {
    expect((await request(`${server.url}/healthz`, 'GET')).body).toEqual({ status: 'ok' });
    expect((await request(`${server.url}/readyz`, 'GET')).body).toEqual({
      status: 'ready',
      store: 'sqlite',
    });
    await expectError(request(`${server.url}/metrics`, 'GET'), 404, 'NOT_FOUND');
    expect(new URL(server.metricsUrl).port).not.toBe(new URL(server.url).port);
    expect((await request(`${server.metricsUrl.replace('/metrics', '/')}`, 'GET')).status).toBe(
      404,
    );
    const metrics = (await request(server.metricsUrl, 'GET')).text;
    for (const name of [
      'ic_matches_created_total',
      'ic_matches_active',
      'ic_sockets',
      'ic_moves_total',
      'ic_rejections_total',
      'ic_move_latency_seconds_bucket',
    ]) {
      expect(metrics).toContain(name);
    }
  });

  it('serves client routes such as the invite and spectator links as pages', async () => {
    const page = await fetch(`${server.url}/watch/abcdefgh`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/html/);
  });
});

describe('configuration', () => {
  it('names every bad value', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: '99999',
        DATABASE_URL: 'mysql://x',
        ALLOWED_ORIGINS: 'https://a.org/path',
        LOG_LEVEL: 'loud',
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of ['PORT', 'DATABASE_URL', 'ALLOWED_ORIGINS', 'LOG_LEVEL']) {
      expect((error as Error).message).toContain(name);
    }
  });

  it('has working defaults', () => {
    const config = loadConfig({}, '/srv/app');
    expect(config).toMatchObject({
      PORT: 8000,
      HOST: '127.0.0.1',
      DATA_DIR: '/srv/app/data',
      DATABASE_SCHEMA: 'public',
      ALLOWED_ORIGINS: [],
    });
  });
});
