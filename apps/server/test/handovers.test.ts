import { HANDOVER_TTL_MS, type Handover, type HandoverSeats } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HANDOVER_ALPHABET,
  HANDOVER_FAILURES_PER_ADDRESS,
  HANDOVER_KEPT_MS,
  HANDOVER_TRIES,
  handoverKey,
  newHandoverCode,
  normalCode,
} from '../src/lobby/handovers.ts';
import { newCredentials } from '../src/ops/secrets.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  POSTGRES_URL,
  request,
  type StoreKind,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

/** Behind a proxy the client's address comes from X-Forwarded-For: tests can be many clients. */
const BEHIND_PROXY = { TRUST_PROXY: 'true' };

/** A server on a fresh store of `kind` with a clock the test moves, for one describe block. */
function serverWithClock(kind: StoreKind, time: ManualTime): () => TestServer {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({
      stores: await openTestStores(kind, where),
      time,
      env: BEHIND_PROXY,
    });
  });
  afterAll(async () => {
    await server?.close();
    if (kind === 'postgres') await dropSchema(where);
  });
  return () => server as TestServer;
}

type Error = { error: { code: string; message: string } };

let addresses = 0;
/** An address no other request of these tests came from. */
const freshAddress = () => {
  addresses += 1;
  return `198.18.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

const redeemAt = (url: string, code: string, address = freshAddress()) =>
  request<HandoverSeats & Error>(
    `${url}/api/handovers/redeem`,
    'POST',
    { code },
    { 'x-forwarded-for': address },
  );

/** `code` with its last character changed: the same handover's locator, the wrong secret. */
const wrongSecret = (code: string, nth = 0): string => {
  const plain = normalCode(code);
  const others = [...HANDOVER_ALPHABET].filter((c) => c !== plain.at(-1));
  return `${plain.slice(0, -1)}${others[nth % others.length]}`;
};

/** A well-formed code naming no handover (its locator is drawn afresh). */
const strangerCode = () => normalCode(newHandoverCode());

describe('handover codes', () => {
  it('are three groups of five unmistakable characters, typed in any case and spacing', () => {
    const codes = new Set(Array.from({ length: 1000 }, newHandoverCode));
    expect(codes.size).toBe(1000);
    const group = '[A-HJKMNP-TV-Z2-9]{5}';
    for (const code of codes) expect(code).toMatch(new RegExp(`^${group}-${group}-${group}$`));
    expect(normalCode(' abcde fghjk-mnpqr ')).toBe('ABCDEFGHJKMNPQR');
  });
});

describe.each(['sqlite', 'postgres'] as StoreKind[])(
  'handing seats over on the %s store',
  (kind) => {
    const time = new ManualTime();
    const server = serverWithClock(kind, time);
    const handOver = (seats: unknown[]) =>
      request<Handover & Error>(`${server().url}/api/handovers`, 'POST', { seats });
    const redeem = (code: string, address?: string) => redeemAt(server().url, code, address);
    const handOverOne = async () => {
      const { created } = await createAndJoin(server().url);
      const handed = await handOver([
        { matchID: created.matchID, seat: '0', credentials: created.credentials },
      ]);
      expect(handed.status).toBe(201);
      return handed.body.code;
    };

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

      const taken = await redeem(handed.body.code.toLowerCase().replaceAll('-', ' '));
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
      expect(again.status).toBe(410);
      expect(again.body.error.code).toBe('HANDOVER_USED');
      expect(again.text).not.toContain(created.credentials);
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
      expect(expired.status).toBe(410);
      expect(expired.body.error.code).toBe('HANDOVER_EXPIRED');
      expect(expired.text).not.toContain(created.credentials);
    });

    it('refuses a code unknown, used, expired or tried out each with its own code, none the match’s NOT_FOUND', async () => {
      const refusal = async (code: string) => {
        const answer = await redeem(code);
        return {
          status: answer.status,
          code: answer.body.error.code,
          message: answer.body.error.message,
        };
      };
      const used = await handOverOne();
      expect((await redeem(used)).status).toBe(200);
      const triedOut = await handOverOne();
      for (let i = 0; i < HANDOVER_TRIES; i++) await redeem(wrongSecret(triedOut, i));
      const triedOutRefusal = await refusal(triedOut);
      const expired = await handOverOne();
      time.skip(HANDOVER_TTL_MS);

      const refusals = {
        unknown: await refusal(strangerCode()),
        wrong: await refusal(wrongSecret(await handOverOne())),
        used: await refusal(used),
        expired: await refusal(expired),
        triedOut: triedOutRefusal,
      };
      expect(
        Object.fromEntries(Object.entries(refusals).map(([k, r]) => [k, [r.status, r.code]])),
      ).toEqual({
        unknown: [404, 'HANDOVER_UNKNOWN'],
        wrong: [404, 'HANDOVER_UNKNOWN'],
        used: [410, 'HANDOVER_USED'],
        expired: [410, 'HANDOVER_EXPIRED'],
        triedOut: [410, 'HANDOVER_TRIED_OUT'],
      });
      const messages = [refusals.unknown, refusals.used, refusals.expired, refusals.triedOut].map(
        (r) => r.message,
      );
      expect(new Set(messages).size).toBe(messages.length);
      const noMatch = await request<Error>(`${server().url}/api/matches/NoSuchMatch1`, 'GET');
      expect(noMatch.body.error.code).toBe('NOT_FOUND');
      expect(messages).not.toContain(noMatch.body.error.message);

      // Used and expired codes are told apart for a day past their expiry, then forgotten.
      time.skip(HANDOVER_KEPT_MS - 1);
      await handOverOne();
      expect((await refusal(used)).code).toBe('HANDOVER_USED');
      time.skip(1);
      await handOverOne();
      expect((await refusal(used)).code).toBe('HANDOVER_UNKNOWN');
      expect((await refusal(expired)).code).toBe('HANDOVER_UNKNOWN');
    });

    it('refuses wrong codes, and a handover with no seat it can vouch for', async () => {
      const code = await handOverOne();
      expect((await redeem(wrongSecret(code))).status).toBe(404);
      expect((await redeem(strangerCode())).status).toBe(404);
      expect((await redeem('short')).status).toBe(404);
      expect((await redeem('')).status).toBe(400);
      // A wrong try did not use the right code up.
      expect((await redeem(code)).status).toBe(200);

      const { created } = await createAndJoin(server().url);
      const forged = await handOver([
        { matchID: created.matchID, seat: '0', credentials: newCredentials() },
      ]);
      expect(forged.status).toBe(403);
      expect(forged.body.error.code).toBe('BAD_CREDENTIALS');
    });

    it(`takes ${HANDOVER_TRIES} tries per code, right or wrong, however many addresses send them at once`, async () => {
      // One short of the tries, sent together from as many addresses: the right code still opens.
      const survivor = await handOverOne();
      const near = await Promise.all(
        Array.from({ length: HANDOVER_TRIES - 1 }, (_, i) => redeem(wrongSecret(survivor, i))),
      );
      expect(near.map((a) => a.status)).toEqual(Array(HANDOVER_TRIES - 1).fill(404));
      expect((await redeem(survivor)).status).toBe(200);

      // Thirty wrong guesses at once: the code counts five, opens for none, then for nobody.
      const guessed = await handOverOne();
      const flood = await Promise.all(
        Array.from({ length: 30 }, (_, i) => redeem(wrongSecret(guessed, i))),
      );
      const codes = flood.map((a) => a.body.error.code);
      expect(codes.filter((c) => c === 'HANDOVER_UNKNOWN')).toHaveLength(HANDOVER_TRIES);
      expect(codes.filter((c) => c === 'HANDOVER_TRIED_OUT')).toHaveLength(30 - HANDOVER_TRIES);
      const tried = await server().stores.handovers.tryHandover(
        handoverKey(normalCode(guessed)),
        HANDOVER_TRIES,
      );
      expect({ tries: tried?.tries, counted: tried?.counted }).toEqual({
        tries: HANDOVER_TRIES,
        counted: false,
      });
      const late = await redeem(guessed);
      expect(late.status).toBe(410);
      expect(late.body.error.code).toBe('HANDOVER_TRIED_OUT');
      expect(late.body.seats).toBeUndefined();
    });

    it('lets a person take their games from an address another flooded with wrong codes', async () => {
      const school = freshAddress();
      const code = await handOverOne();
      const flood = await Promise.all(
        Array.from({ length: 6 * HANDOVER_FAILURES_PER_ADDRESS }, () =>
          redeem(strangerCode(), school),
        ),
      );
      const statuses = flood.map((a) => a.status);
      // The address hears the reason of its first failures, then only that it failed too often.
      expect(statuses.filter((s) => s === 404)).toHaveLength(HANDOVER_FAILURES_PER_ADDRESS);
      expect(statuses.filter((s) => s === 429)).toHaveLength(5 * HANDOVER_FAILURES_PER_ADDRESS);
      const refused = flood.find((a) => a.status === 429);
      expect(refused?.body.error.code).toBe('RATE_LIMITED');
      // The pupil at the next desk, same address, right code: the games are theirs.
      const taken = await redeem(code, school);
      expect(taken.status).toBe(200);
      expect(taken.body.seats).toHaveLength(1);
      // And a typo there is answered as too many failures, not with its reason.
      expect((await redeem(wrongSecret(code), school)).status).toBe(429);
      // Another address still hears reasons.
      expect((await redeem(strangerCode())).status).toBe(404);
    });
  },
);

describe('failed codes per address, with Redis, on two instances', () => {
  const schema = uniqueSchema();
  const servers: TestServer[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          env: {
            ...BEHIND_PROXY,
            DATABASE_URL: POSTGRES_URL,
            DATABASE_SCHEMA: schema,
            REDIS_URL: 'redis://127.0.0.1:6379',
          },
          stores: await openPostgresStores(POSTGRES_URL, schema),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const s of servers) await s.close();
    await dropSchema(schema);
  });

  it('are counted together, and the right code from that address opens on either', async () => {
    const [one, two] = servers as [TestServer, TestServer];
    const { created } = await createAndJoin(one.url);
    const handed = await request<Handover>(`${one.url}/api/handovers`, 'POST', {
      seats: [{ matchID: created.matchID, seat: '0', credentials: created.credentials }],
    });
    const school = freshAddress();
    const flood = await Promise.all(
      Array.from({ length: 4 * HANDOVER_FAILURES_PER_ADDRESS }, (_, i) =>
        redeemAt((i % 2 ? one : two).url, strangerCode(), school),
      ),
    );
    expect(flood.filter((a) => a.status === 404)).toHaveLength(HANDOVER_FAILURES_PER_ADDRESS);
    expect(flood.filter((a) => a.status === 429)).toHaveLength(3 * HANDOVER_FAILURES_PER_ADDRESS);
    const taken = await redeemAt(two.url, handed.body.code, school);
    expect(taken.status).toBe(200);
    expect(taken.body.seats[0]?.credentials).toBe(created.credentials);
  });
});
