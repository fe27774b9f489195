import { createECDH } from 'node:crypto';
import { DEFAULT_DECK } from '@iron-curtain/game';
import {
  type CreateMatchResponse,
  PUSH_SENTENCES,
  type PushKey,
  type PushSubscribeRequest,
  pushSentence,
  type SeatGrant,
} from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { Notifier } from '../src/push/notifier.ts';
import { pushServiceAllowed } from '../src/push/push-services.ts';
import { VapidKeys } from '../src/push/vapid-keys.ts';
import { ManualTime } from './manual-time.ts';
import { type ReceivedPush, type TestBrowser, TestPushService } from './push-service.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  playTurn,
  prng,
  request,
  runningSeat,
  type StoreKind,
  seatClient,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

type Failure = { error: { code: string; message: string } };
type Seats = Awaited<ReturnType<typeof createAndJoin>>;

/** Every sentence a message of these tests may carry (deadlines 24 h ahead): the payload's text must be one of them. */
const SENTENCES = Object.values(PUSH_SENTENCES).flatMap((byNews) =>
  Object.values(byNews).map((sentence) => sentence.replace('{hours}', '24')),
);

const deleteJson = async (url: string, body: unknown) => {
  const response = await fetch(url, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
};

describe('push services a subscription may name', () => {
  const services = ['https://fcm.googleapis.com', 'https://*.push.services.mozilla.com'];
  it('are the listed origins and their wildcard subdomains, nothing that merely looks like them', () => {
    expect(pushServiceAllowed(services, 'https://fcm.googleapis.com/fcm/send/abc')).toBe(true);
    expect(
      pushServiceAllowed(services, 'https://updates.push.services.mozilla.com/wpush/v2/x'),
    ).toBe(true);
    for (const refused of [
      'http://fcm.googleapis.com/fcm/send/abc',
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com.evil.example/x',
      'https://push.services.mozilla.com/x',
      'https://evilpush.services.mozilla.com/x',
      'https://user@fcm.googleapis.com/x',
      'https://127.0.0.1/x',
      'not a url',
    ]) {
      expect({ refused, allowed: pushServiceAllowed(services, refused) }).toEqual({
        refused,
        allowed: false,
      });
    }
  });
});

describe('VAPID settings', () => {
  it('refuse one key without the other, and a public key that is not the private key’s', () => {
    const other =
      'BCd4SF82eXm5GD1UM_qTcSh1Jpwtroldg8onIdGNk4N2AdoQ6RyAnropO0-8A8xIbWRpU1SmoHm9XsuraVXj9Xk';
    expect(() => loadConfig({ PUSH_VAPID_PUBLIC_KEY: other })).toThrow(ConfigError);
    expect(() =>
      loadConfig({
        PUSH_VAPID_PUBLIC_KEY: other,
        PUSH_VAPID_PRIVATE_KEY: Buffer.alloc(32, 7).toString('base64url'),
      }),
    ).toThrow(/is not the public key/);
    expect(() => loadConfig({ PUSH_VAPID_PUBLIC_KEY: 'short' })).toThrow(/65 bytes/);
    expect(() => loadConfig({ PUSH_CONTACT: 'someone' })).toThrow(/mailto/);
    expect(() => loadConfig({ PUSH_SERVICES: 'https://push.example/path' })).toThrow(/no path/);
  });
});

describe.each(['sqlite', 'postgres'] as StoreKind[])('Web Push on the %s store', (kind) => {
  const time = new ManualTime();
  const push = new TestPushService();
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer;
  beforeAll(async () => {
    const origin = await push.start();
    server = await startServer({
      stores: await openTestStores(kind, where),
      time,
      env: { PUSH_SERVICES: origin, PUSH_CONTACT: 'mailto:ops@example.org' },
    });
    const key = await request<PushKey>(`${server.url}/api/push/key`, 'GET');
    push.serverKey = key.body.publicKey;
  });
  afterAll(async () => {
    await server?.close();
    await push.close();
    if (kind === 'postgres') await dropSchema(where);
  });

  const subscribe = (body: Partial<PushSubscribeRequest> | Record<string, unknown>) =>
    request<Failure>(`${server.url}/api/push/subscriptions`, 'POST', body);
  const seatOf = (seats: Seats, seat: '0' | '1') => ({
    matchID: seats.created.matchID,
    seat,
    credentials: seat === '0' ? seats.created.credentials : seats.joined.credentials,
  });
  /** Resigns (or closes) the match by leaving it from `seat`. */
  const leave = async (seats: Seats, seat: '0' | '1') => {
    const { credentials } = seatOf(seats, seat);
    const left = await request(`${server.url}/api/matches/${seats.created.matchID}/leave`, 'POST', {
      seat,
      credentials,
    });
    expect(left.status).toBe(200);
  };
  const subscribeSeat = async (
    seats: Seats,
    seat: '0' | '1',
    browser: TestBrowser,
    language: 'en' | 'de' | 'pl' | 'fr' = 'en',
  ) => {
    const answer = await subscribe({
      ...seatOf(seats, seat),
      language,
      subscription: browser.subscription,
    });
    expect(answer.status).toBe(201);
  };
  /** Everything of a message a push service or a thief of the phone could read: nothing secret may be in it. */
  const expectNothingSecret = (seats: Seats, text: string) => {
    expect(text).not.toContain(seats.created.credentials);
    expect(text).not.toContain(seats.joined.credentials);
    expect(text).not.toContain(seats.invite);
    for (const card of DEFAULT_DECK.cards) expect(text).not.toContain(card.name);
  };

  it('tells each seat’s browsers, in their languages, its turn, its deadline and the end, and nothing more', async () => {
    const seats = await createAndJoin(server.url, { side: 'US' });
    const matchID = seats.created.matchID;
    const phone = push.browser(`phone-${kind}`);
    const laptop = push.browser(`laptop-${kind}`);
    const rival = push.browser(`rival-${kind}`);
    await subscribeSeat(seats, '0', phone, 'de');
    await subscribeSeat(seats, '0', laptop, 'fr');
    await subscribeSeat(seats, '1', rival, 'en');

    await server.app.push.yourTurn(matchID, '0');
    const turn = push.take();
    expect(
      turn
        .map((m) => ({ to: m.browser, payload: JSON.parse(m.payload), faults: m.faults }))
        .sort((a, b) => a.to.localeCompare(b.to)),
    ).toEqual([
      {
        to: `laptop-${kind}`,
        payload: { matchID, text: 'À vous de jouer dans Iron Curtain.' },
        faults: [],
      },
      {
        to: `phone-${kind}`,
        payload: { matchID, text: 'Du bist in Iron Curtain am Zug.' },
        faults: [],
      },
    ]);

    await server.app.push.deadlineNear(matchID, '1', time.now() + 24 * 3600 * 1000);
    const deadline = push.take();
    expect(deadline.map((m) => [m.browser, JSON.parse(m.payload), m.faults])).toEqual([
      [`rival-${kind}`, { matchID, text: 'About 24 h left for your turn in Iron Curtain.' }, []],
    ]);

    // Seat 1 resigns: seat 0 won, and the match's room tells both seats' browsers.
    await leave(seats, '1');
    await push.arrived(3);
    const ended = push.take();
    expect(
      ended
        .map((m) => [m.browser, JSON.parse(m.payload).text, m.faults])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      [`laptop-${kind}`, pushSentence('fr', 'won'), []],
      [`phone-${kind}`, pushSentence('de', 'won'), []],
      [`rival-${kind}`, pushSentence('en', 'lost'), []],
    ]);
    for (const message of [...turn, ...deadline, ...ended]) {
      expect(Object.keys(JSON.parse(message.payload)).sort()).toEqual(['matchID', 'text']);
      expect(SENTENCES).toContain(JSON.parse(message.payload).text);
      expectNothingSecret(seats, message.payload);
      expectNothingSecret(seats, JSON.stringify(message.headers));
    }
    // Nothing more will be said of a match that ended: its subscriptions go once it was said.
    await expect
      .poll(() => server.stores.pushSubscriptions.listPushSubscriptions(matchID))
      .toEqual([]);
    await server.app.push.yourTurn(matchID, '0');
    expect(push.take()).toEqual([]);
  });

  it('in correspondence: tells the seat the decision passes to, warns it a day ahead once, and tells both the end', async () => {
    const seats = await createAndJoin(server.url, { side: 'US', daysPerTurn: 2 });
    const matchID = seats.created.matchID;
    // The clock has started (and told the first seat, not yet subscribed) before anyone subscribes.
    const starter = await runningSeat(server, matchID);
    const browsers = {
      '0': push.browser(`corr0-${kind}`),
      '1': push.browser(`corr1-${kind}`),
    };
    await subscribeSeat(seats, '0', browsers['0'], 'pl');
    await subscribeSeat(seats, '1', browsers['1'], 'en');
    const next = starter === '0' ? '1' : '0';
    const language = { '0': 'pl', '1': 'en' } as const;
    const clients = {
      '0': await seatClient(server.url, matchID, '0', seats.created.credentials),
      '1': await seatClient(server.url, matchID, '1', seats.joined.credentials),
    };
    const texts = (messages: ReceivedPush[]) =>
      messages.map((m) => [m.browser, JSON.parse(m.payload), m.faults]);
    const all: ReceivedPush[] = [];
    try {
      // Both seats are at the table: correspondence tells the next seat anyway, once per turn.
      await playTurn(clients[starter], prng(21));
      await push.arrived(1);
      const turn = push.take();
      all.push(...turn);
      expect(texts(turn)).toEqual([
        [`corr${next}-${kind}`, { matchID, text: pushSentence(language[next], 'yourTurn') }, []],
      ]);

      // A day and a minute later the turn has less than a day left: one warning, not two.
      time.skip(24 * 3600 * 1000 + 60_000);
      expect(await server.app.deadlines.run()).toEqual({ due: 0, warned: 1 });
      await push.arrived(1);
      expect(await server.app.deadlines.run()).toEqual({ due: 0, warned: 0 });
      const warning = push.take();
      all.push(...warning);
      expect(texts(warning)).toEqual([
        [
          `corr${next}-${kind}`,
          { matchID, text: pushSentence(language[next], 'deadlineNear', 24) },
          [],
        ],
      ]);

      // The turn runs out: the match ends on time, and both seats hear how it went.
      time.skip(24 * 3600 * 1000);
      expect(await server.app.deadlines.run()).toMatchObject({ due: 1 });
      await push.arrived(2);
      const ended = push.take();
      all.push(...ended);
      expect(texts(ended).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
        [
          `corr0-${kind}`,
          { matchID, text: pushSentence('pl', starter === '0' ? 'won' : 'lost') },
          [],
        ],
        [
          `corr1-${kind}`,
          { matchID, text: pushSentence('en', starter === '1' ? 'won' : 'lost') },
          [],
        ],
      ]);
      for (const message of all) {
        expectNothingSecret(seats, message.payload);
        expectNothingSecret(seats, JSON.stringify(message.headers));
      }
    } finally {
      clients['0'].close();
      clients['1'].close();
    }
  });

  it('in correspondence: tells the seat deciding first when the match begins, though it left after creating it', async () => {
    const created = await request<CreateMatchResponse>(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'USSR',
      daysPerTurn: 3,
    });
    expect(created.status).toBe(201);
    const { matchID, credentials } = created.body;
    const creator = push.browser(`first-${kind}`);
    const answer = await subscribe({
      matchID,
      seat: '0',
      credentials,
      language: 'de',
      subscription: creator.subscription,
    });
    expect(answer.status).toBe(201);
    // Nothing is said while the match waits for an opponent.
    expect(push.take()).toEqual([]);

    const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
    const joined = await request<SeatGrant>(`${server.url}/api/matches/${matchID}/join`, 'POST', {
      name: 'Boris',
      invite,
    });
    expect(joined.status).toBe(200);
    // The USSR decides first (who goes first): Ann, whose seat has no socket anywhere.
    expect(await runningSeat(server, matchID)).toBe('0');
    await push.arrived(1);
    const started = push.take();
    expect(started.map((m) => [m.browser, JSON.parse(m.payload), m.faults])).toEqual([
      [`first-${kind}`, { matchID, text: pushSentence('de', 'yourTurn') }, []],
    ]);
    const seats = { created: created.body, joined: joined.body, invite, texts: [] };
    expectNothingSecret(seats, started[0]?.payload ?? '');
    expectNothingSecret(seats, JSON.stringify(started[0]?.headers));
    // Resigned, the match leaves nothing running for the tests after it.
    await leave(seats, '0');
    await push.arrived(1);
    expect(push.take().map((m) => JSON.parse(m.payload).text)).toEqual([
      pushSentence('de', 'lost'),
    ]);
  });

  it('in live play: tells a seat its turn only when none of its sockets is connected', async () => {
    const seats = await createAndJoin(server.url, { side: 'US', clockMinutes: 30 });
    const matchID = seats.created.matchID;
    const starter = await runningSeat(server, matchID);
    const next = starter === '0' ? '1' : '0';
    const credentials = { '0': seats.created.credentials, '1': seats.joined.credentials };
    await subscribeSeat(seats, starter, push.browser(`here-${kind}`));
    await subscribeSeat(seats, next, push.browser(`away-${kind}`));
    const mover = await seatClient(server.url, matchID, starter, credentials[starter]);
    try {
      // The next seat has no socket: its browser is told.
      await playTurn(mover, prng(31));
      await push.arrived(1);
      expect(push.take().map((m) => [m.browser, JSON.parse(m.payload).text])).toEqual([
        [`away-${kind}`, pushSentence('en', 'yourTurn')],
      ]);
      // It comes to the table and plays; the starter is at the table: nobody is told. Its
      // resignation then ends the match, which both seats hear: the first thing after the turn.
      const other = await seatClient(server.url, matchID, next, credentials[next]);
      await playTurn(other, prng(32));
      other.close();
      await leave(seats, next);
      await push.arrived(2);
      expect(
        push
          .take()
          .map((m) => [m.browser, JSON.parse(m.payload).text])
          .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
      ).toEqual([
        [`away-${kind}`, pushSentence('en', 'lost')],
        [`here-${kind}`, pushSentence('en', 'won')],
      ]);
    } finally {
      mover.close();
    }
  });

  it('removes a browser the push service answers 404 or 410 for, from every match, and keeps one that failed for now', async () => {
    const first = await createAndJoin(server.url);
    const second = await createAndJoin(server.url);
    const gone = push.browser(`gone-${kind}`, 410);
    const unknown = push.browser(`unknown-${kind}`, 404);
    const busy = push.browser(`busy-${kind}`, 503);
    await subscribeSeat(first, '1', gone);
    await subscribeSeat(second, '0', gone);
    await subscribeSeat(first, '1', unknown);
    await subscribeSeat(first, '1', busy);

    await server.app.push.yourTurn(first.created.matchID, '1');
    expect(
      push
        .take()
        .map((m) => m.browser)
        .sort(),
    ).toEqual([`busy-${kind}`, `gone-${kind}`, `unknown-${kind}`]);
    const left = await server.stores.pushSubscriptions.listPushSubscriptions(first.created.matchID);
    expect(left.map((s) => s.endpoint)).toEqual([busy.subscription.endpoint]);
    expect(
      await server.stores.pushSubscriptions.listPushSubscriptions(second.created.matchID),
    ).toEqual([]);
  });

  it('never throws into the room: an unreachable push service and a match with nobody subscribed resolve', async () => {
    const seats = await createAndJoin(server.url);
    // Port 1 of loopback: nobody listens, the connection is refused.
    const nowhere = 'http://127.0.0.1:1';
    const browser = push.browser(`nowhere-${kind}`);
    const { p256dh, auth } = browser.subscription.keys;
    await server.stores.pushSubscriptions.savePushSubscription({
      matchID: seats.created.matchID,
      seat: '0',
      endpoint: `${nowhere}/push/nowhere`,
      p256dh,
      auth,
      language: 'en',
      createdAt: new Date(time.now()).toISOString(),
    });
    const unreachable = new Notifier({
      pushSubscriptions: server.stores.pushSubscriptions,
      matches: server.stores.matches,
      keys: new VapidKeys(server.config, server.stores.secrets),
      logger: createLogger(server.config),
      time,
      services: [nowhere],
    });
    await expect(unreachable.yourTurn(seats.created.matchID, '0')).resolves.toBeUndefined();
    await expect(server.app.push.yourTurn('NoSuchMatch1', '0')).resolves.toBeUndefined();
    await expect(server.app.push.matchEnded('NoSuchMatch1')).resolves.toBeUndefined();
    // The failed delivery did not remove the subscription: the service may come back.
    expect(
      await server.stores.pushSubscriptions.listPushSubscriptions(seats.created.matchID, '0'),
    ).toHaveLength(1);
    // Nor does the server post to a service PUSH_SERVICES does not list.
    await expect(server.app.push.yourTurn(seats.created.matchID, '0')).resolves.toBeUndefined();
    expect(push.take()).toEqual([]);
  });

  it('keeps a seat’s newest five browsers, one row per browser however often it subscribes', async () => {
    const seats = await createAndJoin(server.url);
    const browsers = Array.from({ length: 7 }, (_, i) => push.browser(`many-${kind}-${i}`));
    for (const browser of browsers) {
      time.skip(1000);
      await subscribeSeat(seats, '1', browser);
    }
    time.skip(1000);
    await subscribeSeat(seats, '1', browsers[6] as TestBrowser, 'pl');
    const kept = await server.stores.pushSubscriptions.listPushSubscriptions(
      seats.created.matchID,
      '1',
    );
    expect(kept.map((s) => s.endpoint)).toEqual(
      [2, 3, 4, 5, 6].map((i) => browsers[i]?.subscription.endpoint),
    );
    expect(kept.at(-1)?.language).toBe('pl');
  });

  it('refuses every bad subscription with a reason, and subscribes nothing for it', async () => {
    const seats = await createAndJoin(server.url);
    const browser = push.browser(`refused-${kind}`);
    const good = { ...seatOf(seats, '0'), language: 'en', subscription: browser.subscription };
    const cases: [string, Record<string, unknown>, number, string, RegExp][] = [
      [
        'wrong credentials',
        { ...good, credentials: 'x'.repeat(32) },
        403,
        'BAD_CREDENTIALS',
        /do not hold/,
      ],
      ['the other seat', { ...good, seat: '1' }, 403, 'BAD_CREDENTIALS', /do not hold/],
      ['no such match', { ...good, matchID: 'NoSuchMatch1' }, 404, 'NOT_FOUND', /no such match/],
      ['a language the client lacks', { ...good, language: 'es' }, 400, 'BAD_REQUEST', /language/],
      [
        'a key that is not a P-256 point',
        {
          ...good,
          subscription: {
            ...browser.subscription,
            keys: { ...browser.subscription.keys, p256dh: 'AAAA' },
          },
        },
        400,
        'BAD_REQUEST',
        /p256dh/,
      ],
      [
        'a key spelled right that is no point of the curve',
        {
          ...good,
          subscription: {
            ...browser.subscription,
            keys: { ...browser.subscription.keys, p256dh: `B${'A'.repeat(86)}` },
          },
        },
        400,
        'BAD_REQUEST',
        /p256dh: the point is not on the P-256 curve/,
      ],
      [
        'a short auth secret',
        {
          ...good,
          subscription: {
            ...browser.subscription,
            keys: { ...browser.subscription.keys, auth: 'abc' },
          },
        },
        400,
        'BAD_REQUEST',
        /auth/,
      ],
      [
        'an endpoint on the operator’s network',
        { ...good, subscription: { ...browser.subscription, endpoint: `${server.url}/metrics` } },
        400,
        'BAD_REQUEST',
        /push services/,
      ],
      [
        'no endpoint URL',
        { ...good, subscription: { ...browser.subscription, endpoint: 'push me' } },
        400,
        'BAD_REQUEST',
        /endpoint/,
      ],
      ['an unknown field', { ...good, cards: [] }, 400, 'BAD_REQUEST', /cards/],
    ];
    for (const [what, body, status, code, message] of cases) {
      const answer = await subscribe(body);
      expect({ what, status: answer.status, code: answer.body.error.code }).toEqual({
        what,
        status,
        code,
      });
      expect(answer.body.error.message).toMatch(message);
    }
    expect(
      await server.stores.pushSubscriptions.listPushSubscriptions(seats.created.matchID),
    ).toEqual([]);

    await leave(seats, '0');
    const over = await subscribe(good);
    expect([over.status, over.body.error.code]).toEqual([409, 'NOT_PLAYING']);
  });

  it('unsubscribes a browser only for the seat whose credentials ask', async () => {
    const seats = await createAndJoin(server.url);
    const browser = push.browser(`leaving-${kind}`);
    await subscribeSeat(seats, '0', browser);
    const url = `${server.url}/api/push/subscriptions`;
    const endpoint = browser.subscription.endpoint;
    const stranger = await deleteJson(url, {
      ...seatOf(seats, '0'),
      credentials: 'z'.repeat(32),
      endpoint,
    });
    expect(stranger.status).toBe(403);
    expect(
      await server.stores.pushSubscriptions.listPushSubscriptions(seats.created.matchID),
    ).toHaveLength(1);
    const own = await deleteJson(url, { ...seatOf(seats, '0'), endpoint });
    expect(own).toEqual({ status: 200, body: { removed: true } });
    expect(await deleteJson(url, { ...seatOf(seats, '0'), endpoint })).toEqual({
      status: 200,
      body: { removed: false },
    });
    await server.app.push.yourTurn(seats.created.matchID, '0');
    expect(push.take()).toEqual([]);
  });

  it('signs with one key pair made once and kept in the store, the same for every instance', async () => {
    const first = (await request<PushKey>(`${server.url}/api/push/key`, 'GET')).body.publicKey;
    expect(Buffer.from(first, 'base64url')).toHaveLength(65);
    const again = await new VapidKeys(server.config, server.stores.secrets).get();
    expect(again.publicKey).toBe(first);
    if (kind === 'postgres') {
      const another = await openTestStores('postgres', where);
      try {
        expect((await new VapidKeys(server.config, another.secrets).get()).publicKey).toBe(first);
      } finally {
        await another.close();
      }
    }
  });

  it('removes a match’s subscriptions with the match when the cleanup takes it', async () => {
    const seats = await createAndJoin(server.url);
    await subscribeSeat(seats, '0', push.browser(`old-${kind}`));
    const removed = await server.stores.matches.removeMatches({
      // Some of the lobby's stamps come from the real clock: past both.
      unfinishedBefore: new Date(Math.max(time.now(), Date.now()) + 60_000).toISOString(),
      finishedBefore: null,
      limit: 1000,
    });
    expect(removed?.map((m) => m.matchID)).toContain(seats.created.matchID);
    expect(
      await server.stores.pushSubscriptions.listPushSubscriptions(seats.created.matchID),
    ).toEqual([]);
  });
});

describe('operator VAPID keys', () => {
  it('are used instead of a stored pair', async () => {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const keys = {
      publicKey: ecdh.getPublicKey().toString('base64url'),
      privateKey: ecdh.getPrivateKey().toString('base64url'),
    };
    const server = await startServer({
      env: { PUSH_VAPID_PUBLIC_KEY: keys.publicKey, PUSH_VAPID_PRIVATE_KEY: keys.privateKey },
    });
    try {
      const answer = await request<PushKey>(`${server.url}/api/push/key`, 'GET');
      expect(answer.body).toEqual({ publicKey: keys.publicKey });
    } finally {
      await server.close();
    }
  });
});
