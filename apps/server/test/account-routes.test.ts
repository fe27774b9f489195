import {
  apiRoutes,
  type PasskeyList,
  type SignUpOptionsResponse,
  type SignUpResponse,
} from '@iron-curtain/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHALLENGE_TTL_MS } from '../src/accounts/account-routes.ts';
import { setAccountDisabled } from '../src/accounts/disable-account.ts';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { SoftAuthenticator } from './accounts/soft-authenticator.ts';
import { ManualTime } from './manual-time.ts';
import { createAndJoin, startServer, type TestServer } from './support.ts';

/** Two instances on one Postgres, players reaching them at PUBLIC_URL, on one hand-moved clock. */
describe('passkey accounts on two instances sharing Postgres', () => {
  const time = new ManualTime();
  let a: TestServer;
  let b: TestServer;
  const on = accountInstances('postgres', { time });
  beforeAll(() => {
    ({ first: a, second: b } = on);
  });
  const browser = () => new Browser(PUBLIC_URL);

  it('signs up: an account, ten recovery codes shown once, an HttpOnly SameSite=Lax session cookie the other instance knows', async () => {
    const ann = browser();
    const up = await ann.signUp(a.url, 'Ann_Lee', b.url);
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const body = up.body as unknown as SignUpResponse;
    expect(body.account.username).toBe('Ann_Lee');
    expect(body.recoveryCodes).toHaveLength(10);
    expect(new Set(body.recoveryCodes).size).toBe(10);
    const cookie = up.setCookie.join('\n');
    expect(cookie).toMatch(
      /^ic_session=[A-Za-z0-9_-]{22}; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax$/,
    );
    expect((await ann.account(a.url)).body).toEqual({ account: body.account });
  });

  it('ends the session a browser held when it signs up to another account', async () => {
    const quinn = browser();
    await quinn.signUp(a.url, 'Quinn');
    const first = quinn.cookie;
    expect((await quinn.signUp(b.url, 'Quinn2')).status).toBe(201);
    const old = browser();
    old.cookie = first;
    expect((await old.account(a.url)).body.error?.code).toBe('NOT_SIGNED_IN');
    expect((await quinn.account(a.url)).body).toMatchObject({ account: { username: 'Quinn2' } });
  });

  it('refuses a name taken in another case, one too close (naming it), and a reserved one, each with its code', async () => {
    await browser().signUp(a.url, 'Bogdan');
    const taken = await browser().signUp(b.url, 'BOGDAN');
    expect([taken.status, taken.body.error?.code]).toEqual([409, 'NAME_TAKEN']);
    const close = await browser().signUp(b.url, 'B0gdan');
    expect([close.status, close.body.error?.code, close.body.error?.similarTo]).toEqual([
      409,
      'NAME_TOO_CLOSE',
      'Bogdan',
    ]);
    const reserved = await browser().signUp(b.url, 'Admin');
    expect([reserved.status, reserved.body.error?.code]).toEqual([400, 'NAME_NOT_ALLOWED']);
  });

  it('keeps one of two sign-ups of look-alike names finished at once on two instances', async () => {
    const first = browser();
    const second = browser();
    const one = await first.send<{ options: never }>(`${a.url}${apiRoutes.signUpOptions}`, 'POST', {
      username: 'rnary',
    });
    const two = await second.send<{ options: never }>(
      `${b.url}${apiRoutes.signUpOptions}`,
      'POST',
      { username: 'mary' },
    );
    const done = await Promise.all([
      first.send(`${a.url}${apiRoutes.signUp}`, 'POST', {
        response: first.authenticator.register(one.body.options),
      }),
      second.send(`${b.url}${apiRoutes.signUp}`, 'POST', {
        response: second.authenticator.register(two.body.options),
      }),
    ]);
    expect(done.map((d) => d.status).sort()).toEqual([201, 409]);
    expect(done.find((d) => d.status === 409)?.body.error?.code).toBe('NAME_TOO_CLOSE');
  });

  it('signs in with the passkey on the other instance: a new session id, the old one ended', async () => {
    const cleo = browser();
    await cleo.signUp(a.url, 'Cleo');
    const first = cleo.cookie;
    const signedIn = await cleo.signIn(
      b.url,
      cleo.authenticator.authenticate(await cleo.signInOptions(a.url)),
    );
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toMatchObject({ account: { username: 'Cleo' } });
    expect(cleo.cookie).toBeDefined();
    expect(cleo.cookie).not.toBe(first);
    expect((await cleo.account(a.url)).status).toBe(200);
    const old = new Browser(PUBLIC_URL);
    old.cookie = first;
    expect((await old.account(b.url)).body.error?.code).toBe('NOT_SIGNED_IN');
  });

  it('refuses a replayed sign-in: its challenge was taken', async () => {
    const dora = browser();
    await dora.signUp(a.url, 'Dora');
    const signed = dora.authenticator.authenticate(await dora.signInOptions(a.url));
    expect((await dora.signIn(a.url, signed)).status).toBe(200);
    const replay = await dora.signIn(b.url, signed);
    expect([replay.status, replay.body.error?.code]).toEqual([400, 'CEREMONY_EXPIRED']);
  });

  it('refuses a sign-in whose challenge expired after 5 minutes', async () => {
    const emil = browser();
    await emil.signUp(a.url, 'Emil');
    const options = await emil.signInOptions(a.url);
    time.skip(CHALLENGE_TTL_MS + 1);
    const late = await emil.signIn(b.url, emil.authenticator.authenticate(options));
    expect([late.status, late.body.error?.code]).toEqual([400, 'CEREMONY_EXPIRED']);
  });

  it('refuses a passkey whose signature counter went backwards (a cloned authenticator)', async () => {
    const finn = browser();
    await finn.signUp(a.url, 'Finn');
    const ahead = await finn.signIn(
      a.url,
      finn.authenticator.authenticate(await finn.signInOptions(a.url), { counter: 7 }),
    );
    expect(ahead.status).toBe(200);
    const back = await finn.signIn(
      b.url,
      finn.authenticator.authenticate(await finn.signInOptions(b.url), { counter: 3 }),
    );
    expect([back.status, back.body.error?.code]).toEqual([401, 'PASSKEY_NOT_RECOGNISED']);
  });

  it('signs in once with each recovery code, and says the same for a wrong name as for a wrong code', async () => {
    const gina = browser();
    const up = await gina.signUp(a.url, 'Gina');
    const [code] = (up.body as unknown as SignUpResponse).recoveryCodes;
    const other = browser();
    const once = await other.send(`${b.url}${apiRoutes.recoverySignIn}`, 'POST', {
      username: 'gina',
      code,
    });
    expect([once.status, once.body]).toEqual([
      200,
      { account: expect.objectContaining({ username: 'Gina' }) },
    ]);
    expect((await other.account(a.url)).status).toBe(200);
    const again = await browser().send(`${a.url}${apiRoutes.recoverySignIn}`, 'POST', {
      username: 'Gina',
      code,
    });
    const nobody = await browser().send(`${a.url}${apiRoutes.recoverySignIn}`, 'POST', {
      username: 'nobody-here',
      code,
    });
    expect([again.status, again.body]).toEqual([nobody.status, nobody.body]);
    expect(again.body.error?.code).toBe('RECOVERY_CODE_REFUSED');
  });

  it('signs out everywhere: every session of the account ends, on both instances', async () => {
    const hana = browser();
    await hana.signUp(a.url, 'Hana');
    const laptop = browser();
    laptop.authenticator.credentials.push(...hana.authenticator.credentials);
    expect(
      (
        await laptop.signIn(
          b.url,
          laptop.authenticator.authenticate(await laptop.signInOptions(b.url)),
        )
      ).status,
    ).toBe(200);
    const out = await hana.send(`${b.url}${apiRoutes.signOutEverywhere}`, 'POST');
    expect(out.body).toEqual({ ended: 2 });
    expect(hana.cookie).toBeUndefined();
    expect((await laptop.account(a.url)).body.error?.code).toBe('NOT_SIGNED_IN');
  });

  it('ends every session of an account the operator disables, refuses its sign-in, and takes it back once enabled', async () => {
    const jana = browser();
    await jana.signUp(a.url, 'Jana');
    const stores = { accounts: a.stores.accounts, sessions: a.stores.sessions };
    expect(await setAccountDisabled(stores, 'JANA', true, new Date(time.now()).toISOString())).toBe(
      true,
    );
    expect((await jana.account(b.url)).body.error?.code).toBe('NOT_SIGNED_IN');
    const refused = await jana.signIn(
      b.url,
      jana.authenticator.authenticate(await jana.signInOptions(b.url)),
    );
    expect([refused.status, refused.body.error?.code]).toEqual([401, 'PASSKEY_NOT_RECOGNISED']);
    expect(
      await setAccountDisabled(stores, 'jana', false, new Date(time.now()).toISOString()),
    ).toBe(true);
    const back = await jana.signIn(
      b.url,
      jana.authenticator.authenticate(await jana.signInOptions(b.url)),
    );
    expect(back.status).toBe(200);
    expect(
      await setAccountDisabled(stores, 'nobody-at-all', true, new Date(time.now()).toISOString()),
    ).toBe(false);
  });

  it('joins the seats a browser proves to its account, and lists them on another device for My games', async () => {
    const kurt = browser();
    await kurt.signUp(a.url, 'Kurt');
    const { created } = await createAndJoin(a.url);
    const other = await createAndJoin(b.url);
    const seats = [
      { matchID: created.matchID, seat: '0', credentials: created.credentials },
      { matchID: other.created.matchID, seat: '1', credentials: other.created.credentials },
    ];
    const joined = await kurt.send(`${b.url}${apiRoutes.accountSeats}`, 'POST', { seats });
    expect(joined.body).toEqual({ joined: 1 });
    expect(
      (await browser().send(`${a.url}${apiRoutes.accountSeats}`, 'POST', { seats })).body.error
        ?.code,
    ).toBe('NOT_SIGNED_IN');

    const phone = browser();
    phone.authenticator.credentials.push(...kurt.authenticator.credentials);
    await phone.signIn(a.url, phone.authenticator.authenticate(await phone.signInOptions(a.url)));
    const listed = await phone.send<{ seats: typeof seats }>(
      `${a.url}${apiRoutes.accountSeats}`,
      'GET',
    );
    expect(listed.body).toEqual({ seats: [seats[0]] });
    const games = await phone.send<{ games: { matchID: string }[] }>(
      `${b.url}${apiRoutes.myGames}`,
      'POST',
      {
        seats: listed.body.seats,
      },
    );
    expect(games.body.games.map((g) => g.matchID)).toEqual([created.matchID]);
  });

  it('adds another passkey to a signed-in account, which then signs in on its own; never with a challenge of another account', async () => {
    const lily = browser();
    await lily.signUp(a.url, 'Lily');
    const key = new SoftAuthenticator(PUBLIC_URL);
    // Listed the oldest first: the new passkey a second later than the first.
    time.skip(1000);
    const options = await lily.send<SignUpOptionsResponse>(
      `${a.url}${apiRoutes.passkeyOptions}`,
      'POST',
      {},
    );
    expect(options.body.options.excludeCredentials).toHaveLength(1);
    const added = await lily.send<PasskeyList>(`${b.url}${apiRoutes.passkeys}`, 'POST', {
      response: key.register(options.body.options),
      passkeyName: 'security key',
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.passkeys.map((p) => p.name)).toEqual(['test laptop', 'security key']);
    const elsewhere = browser();
    elsewhere.authenticator.credentials.push(...key.credentials);
    const signedIn = await elsewhere.signIn(
      a.url,
      key.authenticate(await elsewhere.signInOptions(a.url)),
    );
    expect(signedIn.body).toMatchObject({ account: { username: 'Lily' } });

    const mona = browser();
    await mona.signUp(a.url, 'Mona');
    const monas = await mona.send<SignUpOptionsResponse>(
      `${a.url}${apiRoutes.passkeyOptions}`,
      'POST',
      {},
    );
    const crossed = await lily.send(`${a.url}${apiRoutes.passkeys}`, 'POST', {
      response: new SoftAuthenticator(PUBLIC_URL).register(monas.body.options),
    });
    expect([crossed.status, crossed.body.error?.code]).toEqual([400, 'CEREMONY_EXPIRED']);
    expect(
      (await lily.send<PasskeyList>(`${a.url}${apiRoutes.passkeys}`, 'GET')).body.passkeys,
    ).toHaveLength(2);
    expect((await browser().send(`${a.url}${apiRoutes.passkeyOptions}`, 'POST', {})).status).toBe(
      401,
    );
  });

  it('removes a passkey, but not the last one once every recovery code is used', async () => {
    const pia = browser();
    const up = await pia.signUp(a.url, 'Pia');
    const codes = (up.body as unknown as SignUpResponse).recoveryCodes;
    const key = new SoftAuthenticator(PUBLIC_URL);
    time.skip(1000);
    const options = await pia.send<SignUpOptionsResponse>(
      `${a.url}${apiRoutes.passkeyOptions}`,
      'POST',
      {},
    );
    const added = await pia.send<PasskeyList>(`${a.url}${apiRoutes.passkeys}`, 'POST', {
      response: key.register(options.body.options),
    });
    const [laptop, security] = added.body.passkeys;
    for (const code of codes) {
      const used = await browser().send(`${b.url}${apiRoutes.recoverySignIn}`, 'POST', {
        username: 'Pia',
        code,
      });
      expect(used.status).toBe(200);
    }
    const removed = await pia.send<PasskeyList>(`${b.url}${apiRoutes.passkeys}`, 'DELETE', {
      id: laptop?.id,
    });
    expect(removed.body.passkeys.map((p) => p.id)).toEqual([security?.id]);
    const last = await pia.send(`${a.url}${apiRoutes.passkeys}`, 'DELETE', { id: security?.id });
    expect([last.status, last.body.error?.code]).toEqual([409, 'LAST_PASSKEY']);
    const unknown = await pia.send(`${a.url}${apiRoutes.passkeys}`, 'DELETE', { id: laptop?.id });
    expect([unknown.status, unknown.body.error?.code]).toEqual([404, 'NOT_FOUND']);
  });

  it('refuses a signed-in request from another origin, and the session stays', async () => {
    const ivan = browser();
    await ivan.signUp(a.url, 'Ivan');
    const forged = await ivan.send(
      `${a.url}${apiRoutes.signOutEverywhere}`,
      'POST',
      undefined,
      'https://evil.example',
    );
    expect([forged.status, forged.body.error?.code]).toEqual([403, 'BAD_ORIGIN']);
    const lobbyWrite = await ivan.send(
      `${a.url}/api/matches`,
      'POST',
      { name: 'Ivan' },
      'https://evil.example',
    );
    expect(lobbyWrite.body.error?.code).toBe('BAD_ORIGIN');
    expect((await ivan.account(b.url)).status).toBe(200);
  });
});

describe('passkeys over plain http', () => {
  it('are refused, saying HTTPS is needed, when PUBLIC_URL is not localhost', async () => {
    const server = await startServer({ env: { PUBLIC_URL: 'http://play.example.org' } });
    try {
      const ann = new Browser('http://play.example.org');
      const up = await ann.signUp(server.url, 'Ann');
      expect([up.status, up.body.error?.code]).toEqual([400, 'HTTPS_REQUIRED']);
      expect(up.body.error?.message).toMatch(/HTTPS/);
      const options = await ann.send(`${server.url}${apiRoutes.signInOptions}`, 'POST', {});
      expect(options.body.error?.code).toBe('HTTPS_REQUIRED');
    } finally {
      await server.close();
    }
  });

  it('send a Secure cookie when SERVED_OVER_TLS is set', async () => {
    const server = await startServer({
      env: { PUBLIC_URL: 'https://play.example.org', SERVED_OVER_TLS: 'true' },
    });
    try {
      const up = await new Browser('https://play.example.org').signUp(server.url, 'Ann');
      expect(up.status).toBe(201);
      expect(up.setCookie.join('')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await server.close();
    }
  });
});

describe('sign-ups and sign-in attempts from one address', () => {
  const LIMIT = 3;
  const servers: TestServer[] = [];
  const on = accountInstances('postgres', {
    env: {
      TRUST_PROXY: 'true',
      ACCOUNT_ATTEMPTS_PER_ADDRESS_PER_MINUTE: String(LIMIT),
      REDIS_URL: 'redis://127.0.0.1:6379',
    },
  });
  beforeAll(() => {
    servers.push(on.first, on.second);
  });
  const spellings = [
    (p: string) => p,
    (p: string) => p.toUpperCase(),
    (p: string) => `${[...p].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')}/`,
  ];

  it('are limited on all instances together, sent at once, whatever the spelling of the path', async () => {
    const flooder = new Browser(PUBLIC_URL, { 'x-forwarded-for': '203.0.113.40' });
    const routes = [
      apiRoutes.signInOptions,
      apiRoutes.signUpOptions,
      apiRoutes.signIn,
      apiRoutes.recoverySignIn,
    ];
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        flooder.send(
          `${servers[i % 2]?.url}${spellings[i % 3]?.(routes[i % 4] as string)}`,
          'POST',
          { username: `flood${i}`, code: 'abcd', response: {} },
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 429)).toHaveLength(12 - LIMIT);
    expect(
      answers.filter((a) => a.status === 429).every((a) => a.body.error?.code === 'RATE_LIMITED'),
    ).toBe(true);
    const neighbour = new Browser(PUBLIC_URL, { 'x-forwarded-for': '198.51.100.40' });
    expect((await neighbour.signUp(servers[1]?.url as string, 'Neighbour')).status).toBe(201);
  });
});
