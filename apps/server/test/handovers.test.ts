import { HANDOVER_TTL_MS, type Handover, type HandoverSeats } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HANDOVER_REDEEMS_PER_ADDRESS,
  newHandoverCode,
  normalCode,
} from '../src/lobby/handovers.ts';
import { newCredentials } from '../src/ops/secrets.ts';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  request,
  type StoreKind,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

/** A server on a fresh store of `kind` with a clock the test moves, for one describe block. */
function serverWithClock(kind: StoreKind, time: ManualTime): () => TestServer {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({ stores: await openTestStores(kind, where), time });
  });
  afterAll(async () => {
    await server?.close();
    if (kind === 'postgres') await dropSchema(where);
  });
  return () => server as TestServer;
}

type Error = { error: { code: string; message: string } };

describe('handover codes', () => {
  it('are two groups of five unmistakable characters, typed in any case and spacing', () => {
    const codes = new Set(Array.from({ length: 1000 }, newHandoverCode));
    expect(codes.size).toBe(1000);
    for (const code of codes) expect(code).toMatch(/^[A-HJKMNP-TV-Z2-9]{5}-[A-HJKMNP-TV-Z2-9]{5}$/);
    expect(normalCode(' abcde fghjk ')).toBe('ABCDEFGHJK');
  });
});

describe.each(['sqlite', 'postgres'] as StoreKind[])(
  'handing seats over on the %s store',
  (kind) => {
    const time = new ManualTime();
    const server = serverWithClock(kind, time);
    const handOver = (seats: unknown[]) =>
      request<Handover & Error>(`${server().url}/api/handovers`, 'POST', { seats });
    const redeem = (code: string) =>
      request<HandoverSeats & Error>(`${server().url}/api/handovers/redeem`, 'POST', { code });

    it('hands the seats whose credentials hold to another browser, once', async () => {
      const { created } = await createAndJoin(server().url, { side: 'US' });
      const other = await createAndJoin(server().url, { side: 'USSR' });
      const handed = await handOver([
        { matchID: created.matchID, seat: '0', credentials: created.credentials },
        { matchID: other.created.matchID, seat: '1', credentials: other.joined.credentials },
        { matchID: created.matchID, seat: '1', credentials: newCredentials() },
      ]);
      expect(handed.status).toBe(201);
      expect(handed.body.seats).toBe(2);
      expect(Date.parse(handed.body.expiresAt)).toBe(time.now() + HANDOVER_TTL_MS);
      expect(handed.text).not.toContain(created.credentials);

      const taken = await redeem(handed.body.code.toLowerCase().replace('-', ' '));
      expect(taken.status).toBe(200);
      expect(taken.body.seats).toEqual([
        {
          matchID: created.matchID,
          seat: '0',
          side: 'US',
          credentials: created.credentials,
          name: 'Ann',
        },
        {
          matchID: other.created.matchID,
          seat: '1',
          side: 'US',
          credentials: other.joined.credentials,
          name: 'Boris',
        },
      ]);
      // The seat handed over still plays with the same credentials on the new browser.
      const status = await request<{ games: { turn: unknown }[] }>(
        `${server().url}/api/my-games`,
        'POST',
        { seats: [{ matchID: created.matchID, seat: '0', credentials: created.credentials }] },
      );
      expect(status.body.games[0]).toHaveProperty('turn');

      const again = await redeem(handed.body.code);
      expect(again.status).toBe(404);
      expect(again.body.error.code).toBe('NOT_FOUND');
    });

    it('expires ten minutes after it was made, by the server’s clock', async () => {
      const { created } = await createAndJoin(server().url);
      const held = [{ matchID: created.matchID, seat: '0', credentials: created.credentials }];
      const early = (await handOver(held)).body.code;
      const late = (await handOver(held)).body.code;
      time.skip(HANDOVER_TTL_MS - 1);
      expect((await redeem(early)).status).toBe(200);
      time.skip(1);
      const expired = await redeem(late);
      expect(expired.status).toBe(404);
      expect(expired.text).not.toContain(created.credentials);
    });

    it('refuses wrong codes, and a handover with no seat it can vouch for', async () => {
      const { created } = await createAndJoin(server().url);
      const handed = await handOver([
        { matchID: created.matchID, seat: '0', credentials: created.credentials },
      ]);
      const code = normalCode(handed.body.code);
      const wrong = `${code.slice(0, -1)}${code.endsWith('A') ? 'B' : 'A'}`;
      expect((await redeem(wrong)).status).toBe(404);
      expect((await redeem('short')).status).toBe(404);
      expect((await redeem('')).status).toBe(400);
      // The wrong tries did not use the right code up.
      expect((await redeem(code)).status).toBe(200);

      const forged = await handOver([
        { matchID: created.matchID, seat: '0', credentials: newCredentials() },
      ]);
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('BAD_CREDENTIALS');
    });
  },
);

describe('redeeming codes', () => {
  const time = new ManualTime();
  const server = serverWithClock('sqlite', time);

  it(`is limited to ${HANDOVER_REDEEMS_PER_ADDRESS} tries per address, right code or not`, async () => {
    const { created } = await createAndJoin(server().url);
    const handed = await request<Handover>(`${server().url}/api/handovers`, 'POST', {
      seats: [{ matchID: created.matchID, seat: '0', credentials: created.credentials }],
    });
    const tries = await Promise.all(
      Array.from({ length: HANDOVER_REDEEMS_PER_ADDRESS }, () =>
        request(`${server().url}/api/handovers/redeem`, 'POST', { code: newHandoverCode() }),
      ),
    );
    expect(tries.map((t) => t.status)).toEqual(Array(HANDOVER_REDEEMS_PER_ADDRESS).fill(404));
    const refused = await request<Error>(`${server().url}/api/handovers/redeem`, 'POST', {
      code: handed.body.code,
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });
});
