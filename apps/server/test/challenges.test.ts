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
import { ConfigError, loadConfig } from '../src/config.ts';
import { ManualTime } from './manual-time.ts';
import {
  dropSchema,
  GameClient,
  openTestStore,
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
      store: await openTestStore(kind, where),
      time,
      env: { OPEN_CHALLENGES_PER_ADDRESS: '2', CHALLENGE_AWAY_SECONDS: String(AWAY_SECONDS) },
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

  // Last: it moves the server's clock past the real one.
  it('keeps a challenge while its creator is connected, drops it once they have been away too long', async () => {
    const present = await create({ visibility: 'open' });
    const gone = await create({ visibility: 'open' });
    const creator = new GameClient(server.url);
    await creator.connected();
    await creator.sync(present.matchID, present.seat, present.credentials);
    // The store stamps matches with the real clock: bring the server's clock up to it first.
    time.skip(Date.now() - time.now());
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

describe('the open-challenge settings', () => {
  it('refuse a cap or an absence limit that is not a positive whole number', () => {
    expect(() => loadConfig({ OPEN_CHALLENGES_PER_ADDRESS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHALLENGE_AWAY_SECONDS: 'soon' })).toThrow(ConfigError);
    expect(loadConfig({}).OPEN_CHALLENGES_PER_ADDRESS).toBe(3);
  });
});
