import { apiRoutes, DELETED_PLAYER_NAME, type MatchInfo } from '@iron-curtain/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { NAME_KEPT_MS } from '../src/accounts/account-routes.ts';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { ManualTime } from './manual-time.ts';
import { createAndJoin, request, seatClient } from './support.ts';

/** On SQLite one server; on Postgres the account deleted on one instance, looked at on the other. */
describe.each(['sqlite', 'postgres'] as const)('deleting an account on %s', (kind) => {
  const time = new ManualTime();
  let a: string;
  let b: string;
  const on = accountInstances(kind, { time });
  beforeAll(() => {
    ({ a, b } = on);
  });
  const browser = () => new Browser(PUBLIC_URL);
  const info = async (matchID: string) =>
    (await request<MatchInfo>(`${b}/api/matches/${matchID}`, 'GET')).body;

  it('removes its sessions and passkeys at once, keeps its finished games played by "deleted player", leaves its games in play to their credentials, and keeps its name taken', async () => {
    const ann = browser();
    const up = await ann.signUp(a, `Leaving_${kind}`);
    const { recoveryCodes } = up.body as unknown as { recoveryCodes: string[] };
    const phone = browser();
    phone.authenticator.credentials.push(...ann.authenticator.credentials);
    await phone.signIn(b, phone.authenticator.authenticate(await phone.signInOptions(b)));
    expect((await phone.account(b)).status).toBe(200);

    const finished = await createAndJoin(a, { name: 'Ann' });
    const playing = await createAndJoin(a, { name: 'Ann' });
    await ann.send(`${a}${apiRoutes.accountSeats}`, 'POST', {
      seats: [finished.created, playing.created].map((c) => ({
        matchID: c.matchID,
        seat: '0',
        credentials: c.credentials,
      })),
    });
    const spectator = await seatClient(a, finished.created.matchID, null);
    await request(`${a}/api/matches/${finished.created.matchID}/leave`, 'POST', {
      seat: '1',
      credentials: finished.joined.credentials,
    });
    await spectator.until(() => spectator.presence?.status === 'finished', 'the resignation');
    spectator.socket.close();

    const deleted = await ann.send(`${a}${apiRoutes.account}`, 'DELETE', {});
    expect([deleted.status, deleted.body]).toEqual([200, { deleted: true }]);
    expect(deleted.setCookie.join()).toContain('Max-Age=0');

    // Every session ended, on every instance; the passkey and the recovery codes sign in no more.
    expect((await phone.account(b)).body.error?.code).toBe('NOT_SIGNED_IN');
    const again = browser();
    again.authenticator.credentials.push(...ann.authenticator.credentials);
    const signIn = await again.signIn(
      b,
      again.authenticator.authenticate(await again.signInOptions(b)),
    );
    expect(signIn.body.error?.code).toBe('PASSKEY_NOT_RECOGNISED');
    const recovered = await again.send(`${b}${apiRoutes.recoverySignIn}`, 'POST', {
      username: `Leaving_${kind}`,
      code: recoveryCodes[0],
    });
    expect(recovered.body.error?.code).toBe('RECOVERY_CODE_REFUSED');

    // The finished game stays, played by "deleted player"; the one in play keeps its name, and
    // its credentials still hold the seat.
    expect((await info(finished.created.matchID)).players.map((p) => p.name)).toEqual([
      DELETED_PLAYER_NAME,
      'Boris',
    ]);
    expect((await info(playing.created.matchID)).players.map((p) => p.name)).toEqual([
      'Ann',
      'Boris',
    ]);
    const seat = await seatClient(b, playing.created.matchID, '0', playing.created.credentials);
    expect(seat.playerID).toBe('0');
    seat.socket.close();

    // The name stays taken for a year, in any case; then anyone may take it.
    const taken = await browser().signUp(b, `LEAVING_${kind}`);
    expect(taken.body.error?.code).toBe('NAME_TAKEN');
    time.skip(NAME_KEPT_MS - 60_000);
    expect((await browser().signUp(a, `leaving_${kind}`)).body.error?.code).toBe('NAME_TAKEN');
    time.skip(60_000);
    const free = await browser().signUp(b, `LEAVING_${kind}`);
    expect(free.status, JSON.stringify(free.body)).toBe(201);
  });

  it('refuses a browser that is not signed in', async () => {
    const answer = await browser().send(`${a}${apiRoutes.account}`, 'DELETE', {});
    expect([answer.status, answer.body.error?.code]).toEqual([401, 'NOT_SIGNED_IN']);
  });
});
