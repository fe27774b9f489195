import { apiRoutes } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { setAccountDisabled } from '../src/accounts/disable-account.ts';
import { sessionHash } from '../src/accounts/session-cookie.ts';
import { SESSION_RECHECK_MS } from '../src/match/session-ties.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { ManualTime } from './manual-time.ts';
import { createAndJoin, GameClient, startServer, type TestServer, tempDir } from './support.ts';

/**
 * On SQLite one server; on Postgres two instances sharing it, the socket on one and the
 * session ended on the other.
 */
describe.each(['sqlite', 'postgres'] as const)('a signed-in socket on %s', (kind) => {
  const time = new ManualTime();
  let first: TestServer;
  let second: TestServer;
  const clients: GameClient[] = [];
  const on = accountInstances(kind, { time });
  beforeAll(() => {
    ({ first, second } = on);
  });
  afterAll(async () => {
    for (const client of clients) client.socket.close();
  });

  /** A socket of the game service on `server`, carrying the browser's cookie (if any) at the handshake. */
  const connect = (server: TestServer, who?: Browser) => {
    const client = new GameClient(server.url, {
      headers: who?.cookie ? { cookie: who.cookie } : {},
    });
    clients.push(client);
    return client;
  };
  /** What the server knows of a client's socket: its tie to a session. */
  const tieOf = (server: TestServer, client: GameClient) =>
    server.app.game.io.of('/game').sockets.get(client.socket.id as string)?.data.tie;
  /** A signed-up browser holding seat 0 of a match in play, and its socket seated there. */
  const seated = async (username: string) => {
    const who = new Browser(PUBLIC_URL);
    expect((await who.signUp(first.url, username)).status).toBe(201);
    const { created } = await createAndJoin(first.url);
    const client = connect(first, who);
    expect((await client.sync(created.matchID, '0', created.credentials)).ok).toBe(true);
    return { who, client, created };
  };

  it('ties the socket to the account at the handshake; a socket with no cookie or an unknown one is tied to none', async () => {
    const { client, who } = await seated(`Tied_${kind}`);
    // The account behind the browser's session, as the store knows it.
    const account = await first.stores.sessions.touchSession(
      sessionHash(who.cookie?.split('=')[1] as string),
      new Date(time.now()).toISOString(),
      new Date(0).toISOString(),
    );
    expect(tieOf(first, client)?.accountID).toBe(account?.accountID);

    const guest = connect(first);
    const forged = new Browser(PUBLIC_URL);
    forged.cookie = 'ic_session=AAAAAAAAAAAAAAAAAAAAAA';
    const stranger = connect(first, forged);
    const { created } = await createAndJoin(first.url);
    expect((await guest.sync(created.matchID, null)).ok).toBe(true);
    expect((await stranger.sync(created.matchID, null)).ok).toBe(true);
    expect(tieOf(first, guest)).toBeUndefined();
    expect(tieOf(first, stranger)).toBeUndefined();
  });

  it('tells the table at once when a seat joins an account after the match started, not at the next name change', async () => {
    const { created, joined } = await createAndJoin(first.url);
    const host = connect(first);
    expect((await host.sync(created.matchID, '0', created.credentials)).ok).toBe(true);
    expect(host.presence?.players['1']).toMatchObject({ name: 'Boris', account: null });
    // Boris signs up on another device of his and brings his seat into the account.
    const boris = new Browser(PUBLIC_URL);
    expect((await boris.signUp(first.url, `Boris_${kind}`)).status).toBe(201);
    const brought = await boris.send(`${first.url}${apiRoutes.accountSeats}`, 'POST', {
      seats: [{ matchID: created.matchID, seat: joined.seat, credentials: joined.credentials }],
    });
    expect(brought.body).toEqual({ joined: 1 });
    await host.until(
      () => host.presence?.players['1'].account === `Boris_${kind}`,
      "a presence naming the seat's account",
    );
    expect(host.presence?.players['1'].name).toBe('Boris');
  });

  it("still checks the seat's credentials: a signed-in socket with wrong ones is refused the seat", async () => {
    const { who, created } = await seated(`Checked_${kind}`);
    const other = connect(first, who);
    const ack = await other.sync(created.matchID, '0', 'not-the-credentials-of-seat-0');
    expect(ack.ok).toBe(false);
    expect(tieOf(first, other)).toBeDefined();
  });

  it('unties at once the sockets of a session signed out on their instance; the seat plays on by its credentials', async () => {
    const { who, client, created } = await seated(`Leaver_${kind}`);
    expect(tieOf(first, client)).toBeDefined();
    await who.send(`${first.url}${apiRoutes.signOut}`, 'POST', {});
    expect(tieOf(first, client)).toBeUndefined();
    expect(client.socket.connected).toBe(true);
    expect((await client.sync(created.matchID, '0', created.credentials)).ok).toBe(true);
  });

  it('unties the sockets of an account signed out everywhere on the other instance at the next recheck', async () => {
    const { who, client, created } = await seated(`Everywhere_${kind}`);
    const ended = await who.send(`${second.url}${apiRoutes.signOutEverywhere}`, 'POST', {});
    expect(ended.status).toBe(200);
    if (kind === 'postgres') expect(tieOf(first, client)).toBeDefined();
    time.advance(SESSION_RECHECK_MS);
    await vi.waitFor(() => expect(tieOf(first, client)).toBeUndefined());
    expect((await client.sync(created.matchID, '0', created.credentials)).ok).toBe(true);
  });

  it("unties a disabled account's sockets at the next recheck; another account's stay tied", async () => {
    const { client } = await seated(`Disabled_${kind}`);
    const { client: kept } = await seated(`Kept_${kind}`);
    expect(
      await setAccountDisabled(
        second.stores,
        `Disabled_${kind}`,
        true,
        new Date(time.now()).toISOString(),
      ),
    ).toBe(true);
    time.advance(SESSION_RECHECK_MS);
    await vi.waitFor(() => expect(tieOf(first, client)).toBeUndefined());
    expect(tieOf(first, kept)).toBeDefined();
  });
});

/** The recheck reads the store only for tied sockets: an instance of guests arms no timer for it. */
describe('the session recheck timer', () => {
  const time = new ManualTime();
  let server: TestServer;
  const clients: GameClient[] = [];
  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL }, stores: openSqliteStores(tempDir()), time });
  });
  afterAll(async () => {
    for (const client of clients) client.socket.close();
    await server?.close();
  });

  const nsp = () => server.app.game.io.of('/game');
  /** A socket connected past the handshake: the server has counted it (or not) as tied. */
  const connected = async (who?: Browser) => {
    const client = new GameClient(server.url, {
      headers: who?.cookie ? { cookie: who.cookie } : {},
    });
    clients.push(client);
    await client.connected();
    return client;
  };
  /** A closed socket, once the server has let it go. */
  const closed = async (client: GameClient) => {
    const id = client.socket.id as string;
    client.close();
    await vi.waitFor(() => expect(nsp().sockets.has(id)).toBe(false), { timeout: 10_000 });
  };

  it('runs while a signed-in socket is tied and stops with the last one, untied or gone; guests arm none', async () => {
    const first = new Browser(PUBLIC_URL);
    expect((await first.signUp(server.url, 'Rechecked')).status).toBe(201);
    const second = new Browser(PUBLIC_URL);
    expect((await second.signUp(server.url, 'Rechecked_too')).status).toBe(201);
    // The instance's own timers (the old-match cleanup's and the deadline sweep's), no socket yet.
    const idle = time.pending;

    const guest = await connected();
    expect(time.pending).toBe(idle);

    const tied = await connected(first);
    expect(time.pending).toBe(idle + 1);
    const alsoTied = await connected(second);
    expect(time.pending).toBe(idle + 1);
    // A recheck that finds the sessions live arms the next (the others' timers fire too).
    time.advance(SESSION_RECHECK_MS);
    await vi.waitFor(() => expect(time.pending).toBe(idle + 1), { timeout: 10_000 });

    // One tied socket left: still armed. Its session ended here: untied, disarmed.
    await closed(tied);
    expect(time.pending).toBe(idle + 1);
    expect((await second.send(`${server.url}${apiRoutes.signOut}`, 'POST', {})).status).toBe(200);
    expect(alsoTied.socket.connected).toBe(true);
    expect(time.pending).toBe(idle);

    // Armed again by the next signed-in socket, disarmed when it goes.
    const again = await connected(first);
    expect(time.pending).toBe(idle + 1);
    await closed(again);
    expect(time.pending).toBe(idle);
    await closed(guest);
  });
});
