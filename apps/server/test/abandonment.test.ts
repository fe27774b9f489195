import type { MatchInfo } from '@iron-curtain/protocol';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  request,
  type StoreKind,
  seatClient,
  startServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

type Answer = { error?: { code: string; message: string } } & Partial<MatchInfo>;

describe.each(['sqlite', 'postgres'] as StoreKind[])('claiming the win on the %s store', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  afterAll(async () => {
    if (kind === 'postgres') await dropSchema(where);
  });

  it('only from an opponent away longer than the grace period, recorded as abandoned', async () => {
    const time = new ManualTime();
    const server = await startServer({
      stores: await openTestStores(kind, where),
      time,
      env: { ABANDON_GRACE_SECONDS: '60' },
    });
    try {
      const { created, joined } = await createAndJoin(server.url);
      const { matchID } = created;
      const ann = await seatClient(server.url, matchID, '0', created.credentials);
      const boris = await seatClient(server.url, matchID, '1', joined.credentials);
      const claim = (credentials = created.credentials) =>
        request<Answer>(`${server.url}/api/matches/${matchID}/claim`, 'POST', {
          seat: '0',
          credentials,
        });

      time.advance(120_000);
      const connected = await claim();
      expect(connected.status).toBe(409);
      expect(connected.body.error?.code).toBe('OPPONENT_CONNECTED');
      expect((await claim('x'.repeat(24))).status).toBe(403);

      boris.close();
      await ann.until(() => ann.presence?.players['1'].connected === false, 'Boris gone');
      expect(ann.presence?.graceMs).toBe(60_000);
      expect(ann.presence?.players['1'].awayMs).toBe(0);
      time.advance(59_000);
      const early = await claim();
      expect(early.status).toBe(409);
      expect(early.body.error?.code).toBe('GRACE_NOT_OVER');
      expect(early.body.error?.message).toContain('1 s');

      time.advance(1_000);
      const won = await claim();
      expect(won.status).toBe(200);
      expect(won.body.status).toBe('finished');
      expect(won.body.result).toMatchObject({ winner: '0', reason: 'abandoned' });
      await ann.until(() => ann.presence?.status === 'finished', 'the end pushed');
      expect(ann.presence?.result?.reason).toBe('abandoned');
      expect((await claim()).body.error?.code).toBe('NOT_PLAYING');
      ann.close();
    } finally {
      await server.close();
    }
  });

  it('forgets an absence once the seat is back', async () => {
    const time = new ManualTime();
    const server = await startServer({
      stores: await openTestStores(kind, where),
      time,
      env: { ABANDON_GRACE_SECONDS: '60' },
    });
    try {
      const { created, joined } = await createAndJoin(server.url);
      const { matchID } = created;
      const awaySince = async () =>
        (await server.stores.matches.getMatch(matchID))?.players[1].awaySince ?? null;
      const ann = await seatClient(server.url, matchID, '0', created.credentials);
      const boris = await seatClient(server.url, matchID, '1', joined.credentials);
      expect(await awaySince()).toBeNull();
      boris.close();
      await ann.until(() => ann.presence?.players['1'].connected === false, 'Boris gone');
      await vi.waitFor(async () => expect(await awaySince()).not.toBeNull());

      time.advance(120_000);
      const back = await seatClient(server.url, matchID, '1', joined.credentials);
      expect(await awaySince()).toBeNull();
      const claim = await request<Answer>(`${server.url}/api/matches/${matchID}/claim`, 'POST', {
        seat: '0',
        credentials: created.credentials,
      });
      expect(claim.body.error?.code).toBe('OPPONENT_CONNECTED');
      ann.close();
      back.close();
    } finally {
      await server.close();
    }
  });

  it('counts an absence from where it was stored, across a restart', async () => {
    const time = new ManualTime();
    const env = { ABANDON_GRACE_SECONDS: '30' };
    const first = await startServer({ stores: await openTestStores(kind, where), time, env });
    const { created, joined } = await createAndJoin(first.url);
    const watcher = await seatClient(first.url, created.matchID, null);
    const boris = await seatClient(first.url, created.matchID, '1', joined.credentials);
    await watcher.until(() => watcher.presence?.players['1'].connected === true, 'Boris here');
    boris.close();
    await watcher.until(() => watcher.presence?.players['1'].connected === false, 'Boris gone');
    time.advance(10_000);
    await first.close();
    time.advance(25_000);
    const second = await startServer({ stores: await openTestStores(kind, where), time, env });
    try {
      const won = await request<Answer>(
        `${second.url}/api/matches/${created.matchID}/claim`,
        'POST',
        { seat: '0', credentials: created.credentials },
      );
      expect(won.body.error).toBeUndefined();
      expect(won.body.result?.reason).toBe('abandoned');
    } finally {
      await second.close();
    }
  });
});
