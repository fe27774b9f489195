import {
  apiRoutes,
  type CreateMatchResponse,
  type HeldSeat,
  type MyGamesResponse,
  type RematchResponse,
  type SeatGrant,
} from '@iron-curtain/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { createAndJoin, seatClient } from './support.ts';

type Games = MyGamesResponse & { error?: { code: string } };

/** The seat a lobby answer granted, as a browser keeps it. */
const held = (grant: { matchID: string; seat: string; credentials: string }): HeldSeat => ({
  matchID: grant.matchID,
  seat: grant.seat as HeldSeat['seat'],
  credentials: grant.credentials,
});

/**
 * On SQLite both "devices" reach one server; on Postgres each its own instance of two sharing
 * the database.
 */
describe.each(['sqlite', 'postgres'] as const)('the account carries the seats on %s', (kind) => {
  let a: string;
  let b: string;
  const on = accountInstances(kind);
  beforeAll(() => {
    ({ a, b } = on);
  });
  const browser = () => new Browser(PUBLIC_URL);
  /** Another device signing in with the same passkey (its body naming `seats`). */
  const secondDevice = async (of: Browser, seats?: HeldSeat[]) => {
    const phone = browser();
    phone.authenticator.credentials.push(...of.authenticator.credentials);
    const options = await phone.signInOptions(b);
    const signedIn = await phone.send(`${b}${apiRoutes.signIn}`, 'POST', {
      response: phone.authenticator.authenticate(options),
      ...(seats ? { seats } : {}),
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    return phone;
  };
  const myGames = (who: Browser, server: string, seats: HeldSeat[] = []) =>
    who.send<Games>(`${server}${apiRoutes.myGames}`, 'POST', { seats });
  const gameIDs = (answer: { body: Games }) => answer.body.games.map((g) => g.matchID).sort();

  it('joins the seats a sign-up proves, leaves out those whose credentials fail, and a second device sees them all in My games with no handover', async () => {
    const one = await createAndJoin(a);
    const two = await createAndJoin(b);
    const ann = browser();
    const options = await ann.send<{ options: never }>(`${a}${apiRoutes.signUpOptions}`, 'POST', {
      username: `Carrier_${kind}`,
    });
    const up = await ann.send(`${a}${apiRoutes.signUp}`, 'POST', {
      response: ann.authenticator.register(options.body.options),
      seats: [held(one.created), { ...held(two.joined), credentials: one.created.credentials }],
    });
    expect(up.status, JSON.stringify(up.body)).toBe(201);

    const phone = await secondDevice(ann);
    const games = await myGames(phone, b);
    expect(games.status).toBe(200);
    expect(games.body.games).toMatchObject([{ matchID: one.created.matchID, seat: '0' }]);
    // A seat the body names again is answered once.
    const both = await myGames(phone, a, [held(one.created), held(two.joined)]);
    expect(both.body.games.map((g) => [g.matchID, g.seat])).toEqual([
      [one.created.matchID, '0'],
      [two.joined.matchID, two.joined.seat],
    ]);
  });

  it('joins the seats a sign-in and a recovery sign-in prove, in the same request', async () => {
    const boris = browser();
    await boris.signUp(a, `Joiner_${kind}`);
    const codes = (await browser().signUp(a, `Joiner2_${kind}`)).body as {
      recoveryCodes: string[];
    };
    const one = await createAndJoin(a);
    const phone = await secondDevice(boris, [held(one.joined)]);
    expect(gameIDs(await myGames(phone, a))).toEqual([one.joined.matchID]);

    const two = await createAndJoin(b);
    const tablet = browser();
    const recovered = await tablet.send(`${b}${apiRoutes.recoverySignIn}`, 'POST', {
      username: `Joiner2_${kind}`,
      code: codes.recoveryCodes[0],
      seats: [held(two.created)],
    });
    expect(recovered.status, JSON.stringify(recovered.body)).toBe(200);
    expect(gameIDs(await myGames(tablet, a))).toEqual([two.created.matchID]);
  });

  it('answers My games of a signed-out browser for the seats it names only', async () => {
    const cleo = browser();
    await cleo.signUp(a, `Named_${kind}`);
    const mine = await createAndJoin(a);
    await cleo.send(`${a}${apiRoutes.accountSeats}`, 'POST', { seats: [held(mine.created)] });
    expect(gameIDs(await myGames(cleo, b))).toEqual([mine.created.matchID]);
    await cleo.send(`${a}${apiRoutes.signOut}`, 'POST', {});
    expect((await myGames(cleo, b)).body.games).toEqual([]);
    expect((await myGames(browser(), b)).body.games).toEqual([]);
  });

  it('joins a seat taken while signed in (creating, joining by invite, accepting a challenge, a rematch) to the account at once', async () => {
    const dora = browser();
    await dora.signUp(a, `Taker_${kind}`);
    const created = await dora.send<CreateMatchResponse>(`${a}${apiRoutes.matches}`, 'POST', {
      name: 'Dora',
      side: 'US',
    });
    expect(created.status).toBe(201);
    const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');

    const other = await browser().send<CreateMatchResponse>(`${b}${apiRoutes.matches}`, 'POST', {
      name: 'Emil',
    });
    const otherInvite = decodeURIComponent(other.body.links.invite.split('#')[1] ?? '');
    const joined = await dora.send<SeatGrant>(
      `${b}/api/matches/${other.body.matchID}/join`,
      'POST',
      { name: 'Dora', invite: otherInvite },
    );
    expect(joined.status).toBe(200);

    const open = await browser().send<CreateMatchResponse>(`${a}${apiRoutes.matches}`, 'POST', {
      name: 'Finn',
      visibility: 'open',
    });
    const accepted = await dora.send<SeatGrant>(
      `${b}/api/matches/${open.body.matchID}/join`,
      'POST',
      { name: 'Dora' },
    );
    expect(accepted.status).toBe(200);

    // The first match played out by resignation, then a rematch both agree to.
    const rival = await browser().send<SeatGrant>(
      `${a}/api/matches/${created.body.matchID}/join`,
      'POST',
      { name: 'Gus', invite },
    );
    const spectator = await seatClient(a, created.body.matchID, null);
    await browser().send(`${a}/api/matches/${created.body.matchID}/leave`, 'POST', {
      seat: rival.body.seat,
      credentials: rival.body.credentials,
    });
    await spectator.until(() => spectator.presence?.status === 'finished', 'the resignation');
    spectator.socket.close();
    const rematch = (who: Browser, seat: string, credentials: string) =>
      who.send<RematchResponse>(`${b}/api/matches/${created.body.matchID}/rematch`, 'POST', {
        seat,
        credentials,
      });
    await rematch(browser(), rival.body.seat, rival.body.credentials);
    const agreed = await rematch(dora, '0', created.body.credentials);
    const next = agreed.body.rematch.matchID;
    expect(next).not.toBeNull();

    const phone = await secondDevice(dora);
    expect(gameIDs(await myGames(phone, a))).toEqual(
      [created.body.matchID, other.body.matchID, open.body.matchID, next].sort(),
    );
    // Nobody else's seat of those matches joined.
    const theirs = await myGames(phone, a);
    expect(theirs.body.games.every((g) => !('error' in g))).toBe(true);
  });
});
