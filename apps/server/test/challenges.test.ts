import {
  CHALLENGES_EVENT,
  type ChallengeList,
  type CreateMatchResponse,
  challengeListSchema,
  errorResponseSchema,
  parseInviteLink,
  type SeatGrant,
} from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/ops/config.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { ManualTime } from './manual-time.ts';
import {
  dropSchema,
  GameClient,
  openTestStores,
  POSTGRES_URL,
  request,
  type StoreKind,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const AWAY_SECONDS = 60;

describe.each(['sqlite', 'postgres'] as StoreKind[])('open challenges on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  const time = new ManualTime();
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      stores: await openTestStores(kind, where),
      time,
      env: {
        OPEN_CHALLENGES_PER_ADDRESS: '2',
        CHALLENGE_AWAY_SECONDS: String(AWAY_SECONDS),
        TRUST_PROXY: 'true',
      },
    });
  });
  afterAll(async () => {
    await server.close();
    if (kind === 'postgres') await dropSchema(where);
  });

  const create = async (body: Record<string, unknown>) => {
    const answer = await request<CreateMatchResponse>(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      ...body,
    });
    expect(answer.status).toBe(201);
    return answer.body;
  };
  const list = async (): Promise<ChallengeList> => {
    const answer = await request(`${server.url}/api/challenges`, 'GET');
    expect(answer.status).toBe(200);
    return challengeListSchema.parse(answer.body);
  };
  const listed = async () => (await list()).challenges.map((c) => c.matchID);
  const take = (matchID: string, body: Record<string, unknown> = {}) =>
    request<SeatGrant>(`${server.url}/api/matches/${matchID}/join`, 'POST', {
      name: 'Boris',
      ...body,
    });
  const cancel = (created: CreateMatchResponse) =>
    request(`${server.url}/api/matches/${created.matchID}/leave`, 'POST', {
      seat: created.seat,
      credentials: created.credentials,
    });

  it('lists an open match with the free side, the creator, the rules and the clock; not a private or public one', async () => {
    const open = await create({
      side: 'USSR',
      visibility: 'open',
      clockMinutes: 10,
      variants: { aftermathCap: null },
    });
    const hidden = await create({ visibility: 'private' });
    const watched = await create({ visibility: 'public' });
    const { challenges } = await list();
    expect(challenges.map((c) => c.matchID)).toContain(open.matchID);
    expect(challenges.map((c) => c.matchID)).not.toContain(hidden.matchID);
    expect(challenges.map((c) => c.matchID)).not.toContain(watched.matchID);
    const challenge = challenges.find((c) => c.matchID === open.matchID);
    expect(challenge).toMatchObject({
      side: 'US',
      creator: 'Ann',
      creatorAccount: null,
      clockMinutes: 10,
      variants: { aftermathCap: null },
    });
    await cancel(open);
    await cancel(hidden);
    await cancel(watched);
  });

  it('lets anyone take the free seat without the invite, then drops it from the list; a private seat still needs its invite', async () => {
    const open = await create({ visibility: 'open' });
    const taken = await take(open.matchID);
    expect(taken.status).toBe(200);
    expect(taken.body.side).not.toBe(open.side);
    expect(await listed()).not.toContain(open.matchID);
    expect((await take(open.matchID)).status).toBe(409);

    const hidden = await create({ visibility: 'private' });
    const refused = await take(hidden.matchID);
    expect(refused.status).toBe(403);
    expect(errorResponseSchema.parse(refused.body).error.code).toBe('BAD_INVITE');
    const invite = parseInviteLink(...(hidden.links.invite.split('#') as [string, string]));
    expect((await take(hidden.matchID, { invite: invite?.invite })).status).toBe(200);
  });

  it('drops a cancelled challenge', async () => {
    const open = await create({ visibility: 'open' });
    expect(await listed()).toContain(open.matchID);
    expect((await cancel(open)).status).toBe(200);
    expect(await listed()).not.toContain(open.matchID);
  });

  it('refuses an address more open challenges than its cap, and admits one again once one is taken', async () => {
    const first = await create({ visibility: 'open' });
    const second = await create({ visibility: 'open' });
    const third = await request(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      visibility: 'open',
    });
    expect(third.status).toBe(429);
    expect(errorResponseSchema.parse(third.body).error.code).toBe('TOO_MANY_CHALLENGES');
    // The cap counts open challenges only: a private match is still welcome.
    await create({ visibility: 'private' });
    expect((await take(first.matchID)).status).toBe(200);
    const again = await create({ visibility: 'open' });
    await cancel(second);
    await cancel(again);
  });

  it('admits exactly its cap of open challenges from one address sending many at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request<CreateMatchResponse>(
          `${server.url}/api/matches`,
          'POST',
          { name: `Ann ${i}`, visibility: 'open' },
          { 'x-forwarded-for': '203.0.113.20' },
        ),
      ),
    );
    const created = answers.filter((a) => a.status === 201).map((a) => a.body);
    expect(created).toHaveLength(2);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(errorResponseSchema.parse(refused.body).error.code).toBe('TOO_MANY_CHALLENGES');
    }
    const own = (await list()).challenges.filter((c) => c.creator.startsWith('Ann '));
    expect(own.map((c) => c.matchID).sort()).toEqual(created.map((c) => c.matchID).sort());
    for (const challenge of created) await cancel(challenge);
  });

  it('gives the place back when a create fails', async () => {
    const from = { 'x-forwarded-for': '203.0.113.21' };
    for (let i = 0; i < 3; i++) {
      const failed = await request(
        `${server.url}/api/matches`,
        'POST',
        { name: 'Ann', visibility: 'open', deckId: 'no-such-deck' },
        from,
      );
      expect(errorResponseSchema.parse(failed.body).error.code).toBe('UNKNOWN_DECK');
    }
    const created = await request<CreateMatchResponse>(
      `${server.url}/api/matches`,
      'POST',
      { name: 'Ann', visibility: 'open' },
      from,
    );
    expect(created.status).toBe(201);
    await cancel(created.body);
  });

  // Last: it moves the server's clock past the real one.
  it('keeps a challenge while its creator is connected, drops it once they have been away too long', async () => {
    const present = await create({ visibility: 'open' });
    const gone = await create({ visibility: 'open' });
    const creator = new GameClient(server.url);
    await creator.connected();
    await creator.sync(present.matchID, present.seat, present.credentials);
    time.skip((AWAY_SECONDS - 1) * 1000);
    expect(await listed()).toEqual(expect.arrayContaining([present.matchID, gone.matchID]));
    time.skip(2000);
    const after = await listed();
    expect(after).toContain(present.matchID);
    expect(after).not.toContain(gone.matchID);
    creator.socket.disconnect();
    await cancel(present);
    await cancel(gone);
  });
});

describe('the live list of open challenges', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  /** Reads the server-sent events of the stream, one challenge list per `challenges` event. */
  async function follow(url: string) {
    const response = await fetch(url);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let buffered = '';
    return {
      async next(): Promise<ChallengeList> {
        for (;;) {
          const end = buffered.indexOf('\n\n');
          if (end >= 0) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const lines = block.split('\n');
            if (lines[0] !== `event: ${CHALLENGES_EVENT}`) continue;
            const data = lines.find((l) => l.startsWith('data: '))?.slice(6) ?? '';
            return challengeListSchema.parse(JSON.parse(data));
          }
          const { value, done } = await reader.read();
          if (done) throw new Error('the stream ended');
          buffered += decoder.decode(value, { stream: true });
        }
      },
      close: () => reader.cancel(),
    };
  }

  it('sends the list at once, then a new challenge, then its removal once taken', async () => {
    const stream = await follow(`${server.url}/api/challenges/stream`);
    expect((await stream.next()).challenges).toEqual([]);
    const created = await request<CreateMatchResponse>(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      visibility: 'open',
    });
    const added = await stream.next();
    expect(added.challenges.map((c) => c.matchID)).toEqual([created.body.matchID]);
    await request(`${server.url}/api/matches/${created.body.matchID}/join`, 'POST', {
      name: 'Boris',
    });
    expect((await stream.next()).challenges).toEqual([]);
    await stream.close();
  });
});

describe('with Redis, several instances', () => {
  const schema = uniqueSchema();
  const servers: TestServer[] = [];
  beforeAll(async () => {
    const env = {
      TRUST_PROXY: 'true',
      DATABASE_URL: POSTGRES_URL,
      DATABASE_SCHEMA: schema,
      REDIS_URL: 'redis://127.0.0.1:6379',
      SOCKETS_PER_ADDRESS: '2',
    };
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({ env, stores: await openPostgresStores(POSTGRES_URL, schema) }),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchema(schema);
  });

  it('admit exactly OPEN_CHALLENGES_PER_ADDRESS open challenges of one address between them, sent at once', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const cap = a.config.OPEN_CHALLENGES_PER_ADDRESS;
    expect(cap).toBe(3);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        request<CreateMatchResponse>(
          `${(i % 2 === 0 ? a : b).url}/api/matches`,
          'POST',
          { name: `Dora ${i}`, visibility: 'open' },
          { 'x-forwarded-for': '203.0.113.30' },
        ),
      ),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(cap);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(errorResponseSchema.parse(refused.body).error.code).toBe('TOO_MANY_CHALLENGES');
    }
    // Another address is not held back by it.
    const other = await request(
      `${b.url}/api/matches`,
      'POST',
      { name: 'Emil', visibility: 'open' },
      { 'x-forwarded-for': '203.0.113.31' },
    );
    expect(other.status).toBe(201);
  });

  it('count the live lists one address follows on all of them against SOCKETS_PER_ADDRESS', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const from = { 'x-forwarded-for': '203.0.113.32' };
    const open = async (server: TestServer) => {
      const controller = new AbortController();
      const response = await fetch(`${server.url}/api/challenges/stream`, {
        headers: from,
        signal: controller.signal,
      });
      return { status: response.status, close: () => controller.abort() };
    };
    const first = await open(a);
    const second = await open(b);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await fetch(`${a.url}/api/challenges/stream`, { headers: from });
    expect(third.status).toBe(429);
    expect(errorResponseSchema.parse(await third.json()).error.code).toBe('RATE_LIMITED');
    const fourth = await fetch(`${b.url}/api/challenges/stream`, { headers: from });
    expect(fourth.status).toBe(429);
    await fourth.body?.cancel();
    first.close();
    second.close();
  });
});

describe('the open-challenge settings', () => {
  it('refuse a cap or an absence limit that is not a positive whole number', () => {
    expect(() => loadConfig({ OPEN_CHALLENGES_PER_ADDRESS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHALLENGE_AWAY_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(loadConfig({}).OPEN_CHALLENGES_PER_ADDRESS).toBe(3);
  });
});
