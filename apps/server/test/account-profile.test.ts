import {
  apiRoutes,
  type ChallengeList,
  type CreateMatchResponse,
  DELETED_PLAYER_NAME,
  type MatchInfo,
  type Profile,
  type SeatGrant,
} from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { request } from './support.ts';

/**
 * A profile at /@/<name> and the names at the table, on both stores: on Postgres each thing
 * done on one instance and looked at on the other.
 */
describe.each(['sqlite', 'postgres'] as const)('profiles and names at the table on %s', (kind) => {
  const on = accountInstances(kind);
  const browser = () => new Browser(PUBLIC_URL);
  const profile = (name: string, page = 1) =>
    request<Profile & { error?: { code: string } }>(
      `${on.b}${apiRoutes.profile.path(name)}?page=${page}`,
      'GET',
    );
  const info = async (matchID: string) =>
    (await request<MatchInfo>(`${on.b}/api/matches/${matchID}`, 'GET')).body;

  /** A match the signed-in `player` creates as `side` under a typed name; a guest joins it. */
  const played = async (
    player: Browser,
    side: 'US' | 'USSR',
    visibility: 'public' | 'private' = 'public',
  ) => {
    const created = await player.send<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', {
      name: 'Typed name',
      side,
      visibility,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
    const joined = await request<SeatGrant>(
      `${on.a}/api/matches/${created.body.matchID}/join`,
      'POST',
      { name: 'Boris', invite },
    );
    expect(joined.status).toBe(200);
    return { created: created.body, joined: joined.body };
  };
  const resign = async (matchID: string, grant: { seat: string; credentials: string }) => {
    const left = await request(`${on.a}/api/matches/${matchID}/leave`, 'POST', {
      seat: grant.seat,
      credentials: grant.credentials,
    });
    expect(left.status).toBe(200);
  };

  it("shows a player's name, member since, results by side and games, and nothing private", async () => {
    const marta = browser();
    expect((await marta.signUp(on.a, `Marta_${kind}`)).status).toBe(201);
    // Won as the US (the guest resigns), lost as the USSR (Marta resigns), one in play, one
    // private game won: counted, never listed.
    const won = await played(marta, 'US');
    await resign(won.created.matchID, won.joined);
    const lost = await played(marta, 'USSR');
    await resign(lost.created.matchID, lost.created);
    const current = await played(marta, 'US');
    const hidden = await played(marta, 'US', 'private');
    await resign(hidden.created.matchID, hidden.joined);

    // Looked up without regard to case, on the other instance.
    const answer = await profile(`marta_${kind}`.toUpperCase());
    expect(answer.status).toBe(200);
    const shown = answer.body;
    expect(shown.username).toBe(`Marta_${kind}`);
    expect(Date.parse(shown.memberSince)).not.toBeNaN();
    expect(shown.results).toEqual({
      US: { played: 2, won: 2, lost: 0 },
      USSR: { played: 1, won: 0, lost: 1 },
    });
    expect(shown.current.map((g) => g.matchID)).toEqual([current.created.matchID]);
    expect(shown.current[0]).toMatchObject({
      side: 'US',
      opponent: 'Boris',
      opponentAccount: null,
    });
    expect(shown.finished.map((g) => [g.matchID, g.side, g.result?.winnerSide])).toEqual([
      [lost.created.matchID, 'USSR', 'US'],
      [won.created.matchID, 'US', 'US'],
    ]);
    expect([shown.page, shown.more]).toEqual([1, false]);
    // Nothing of devices, sessions or addresses.
    expect(answer.text).not.toMatch(/passkey|agent|session|credential|127\.0\.0\.1|Firefox/i);
  });

  it('says no player has a name nobody holds, and keeps a deleted account\'s games played by "deleted player"', async () => {
    expect((await profile(`nobody_${kind}`)).body.error?.code).toBe('NOT_FOUND');
    expect((await profile('x'.repeat(200))).body.error?.code).toBe('NOT_FOUND');
    expect((await profile(`Olga_${kind}`, 0)).body.error?.code).toBe('BAD_REQUEST');

    const olga = browser();
    const piotr = browser();
    expect((await olga.signUp(on.a, `Olga_${kind}`)).status).toBe(201);
    expect((await piotr.signUp(on.a, `Piotr_${kind}`)).status).toBe(201);
    const created = await olga.send<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', {
      name: 'Olga',
      side: 'US',
      visibility: 'public',
    });
    const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
    const joined = await piotr.send<SeatGrant>(
      `${on.a}/api/matches/${created.body.matchID}/join`,
      'POST',
      { name: 'whatever', invite },
    );
    expect(joined.status).toBe(200);
    // Each account's seat carries its account's name, linked as an account's.
    const players = (await info(created.body.matchID)).players;
    expect(players.map((p) => [p.name, p.account])).toEqual([
      [`Olga_${kind}`, `Olga_${kind}`],
      [`Piotr_${kind}`, `Piotr_${kind}`],
    ]);
    await resign(created.body.matchID, joined.body);
    const before = (await profile(`Olga_${kind}`)).body.finished[0];
    expect(before).toMatchObject({ opponent: `Piotr_${kind}`, opponentAccount: `Piotr_${kind}` });

    expect((await piotr.send(`${on.a}${apiRoutes.account}`, 'DELETE', {})).status).toBe(200);
    expect((await profile(`Piotr_${kind}`)).body.error?.code).toBe('NOT_FOUND');
    const after = (await profile(`Olga_${kind}`)).body.finished[0];
    expect(after).toMatchObject({ opponent: DELETED_PLAYER_NAME, opponentAccount: null });
    expect((await info(created.body.matchID)).players[1]).toMatchObject({
      name: DELETED_PLAYER_NAME,
      account: null,
    });
  });

  it("refuses a guest's name that is an account's in any case or by a look-alike spelling, and marks a guest's seat as no account's, a computer's as the computer's", async () => {
    const owner = browser();
    expect((await owner.signUp(on.a, `Marek${kind}`)).status).toBe(201);
    const create = (name: string) =>
      request<CreateMatchResponse & { error?: { code: string } }>(`${on.b}/api/matches`, 'POST', {
        name,
      });
    for (const name of [`Marek${kind}`, `MAREK${kind.toUpperCase()}`, `rnarek${kind}`]) {
      const refused = await create(name);
      expect([name, refused.status, refused.body.error?.code]).toEqual([
        name,
        409,
        'GUEST_NAME_TAKEN',
      ]);
    }
    const guest = await create(`Marek ${kind}`);
    expect(guest.status).toBe(201);
    const invite = decodeURIComponent(guest.body.links.invite.split('#')[1] ?? '');
    const join = (name: string) =>
      request<{ error?: { code: string } }>(
        `${on.a}/api/matches/${guest.body.matchID}/join`,
        'POST',
        { name, invite },
      );
    expect((await join(`marek${kind}`)).body.error?.code).toBe('GUEST_NAME_TAKEN');
    expect((await join('Boris')).status).toBe(200);
    const players = (await info(guest.body.matchID)).players;
    expect(players.map((p) => [p.name, p.account, p.computer])).toEqual([
      [`Marek ${kind}`, null, false],
      ['Boris', null, false],
    ]);
    // A computer player's seat is marked as the computer's, not a guest's.
    const bot = await request<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', {
      name: 'Kasia',
      opponent: 'easy',
    });
    expect(
      (await info(bot.body.matchID)).players.map((p) => [p.name, p.account, p.computer]),
    ).toEqual([
      ['Kasia', null, false],
      ['Computer (easy)', null, true],
    ]);
  });

  it("refuses a guest's name that is or looks like a reserved word or a computer player's name, and a guest who sends no name", async () => {
    const create = (body: { name?: string }) =>
      request<CreateMatchResponse & { error?: { code: string } }>(
        `${on.b}/api/matches`,
        'POST',
        body,
      );
    for (const name of [
      'Computer (easy)',
      'computer (HARD)',
      'C0MPUTER medium',
      'computer',
      'Admin',
      'ADM1N!',
      'Deleted player',
    ]) {
      const refused = await create({ name });
      expect([name, refused.status, refused.body.error?.code]).toEqual([
        name,
        409,
        'GUEST_NAME_RESERVED',
      ]);
    }
    const nameless = await create({});
    expect([nameless.status, nameless.body.error?.code]).toEqual([400, 'BAD_REQUEST']);
    // Names that merely hold such a word are a guest's own.
    for (const name of ['Computer fan', 'Administrata', 'Ładmin']) {
      expect([name, (await create({ name })).status]).toEqual([name, 201]);
    }
    const guest = await create({ name: 'Kasia' });
    const invite = decodeURIComponent(guest.body.links.invite.split('#')[1] ?? '');
    const join = await request<{ error?: { code: string } }>(
      `${on.a}/api/matches/${guest.body.matchID}/join`,
      'POST',
      { name: 'Computer (hard)', invite },
    );
    expect([join.status, join.body.error?.code]).toEqual([409, 'GUEST_NAME_RESERVED']);
  });

  it('seats a signed-in player who sends no name under the account, creating and joining', async () => {
    const creator = browser();
    expect((await creator.signUp(on.a, `Nina_${kind}`)).status).toBe(201);
    const joiner = browser();
    expect((await joiner.signUp(on.b, `Oskar_${kind}`)).status).toBe(201);
    const created = await creator.send<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', {
      side: 'US',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
    const joined = await joiner.send<SeatGrant>(
      `${on.b}/api/matches/${created.body.matchID}/join`,
      'POST',
      { invite },
    );
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect((await info(created.body.matchID)).players.map((p) => [p.name, p.account])).toEqual([
      [`Nina_${kind}`, `Nina_${kind}`],
      [`Oskar_${kind}`, `Oskar_${kind}`],
    ]);
  });

  it("names the account holding an open challenge's seat, on the other instance too, and no account for a guest's", async () => {
    const creator = browser();
    expect((await creator.signUp(on.a, `Vera_${kind}`)).status).toBe(201);
    // Correspondence challenges stay listed with nobody at the table.
    const open = { visibility: 'open', daysPerTurn: 3 };
    const mine = await creator.send<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', open);
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const guests = await request<CreateMatchResponse>(`${on.a}/api/matches`, 'POST', {
      ...open,
      name: 'Walter',
    });
    expect(guests.status, JSON.stringify(guests.body)).toBe(201);
    const listed = (await request<ChallengeList>(`${on.b}${apiRoutes.challenges}`, 'GET')).body;
    const row = (matchID: string) => listed.challenges.find((c) => c.matchID === matchID);
    expect(row(mine.body.matchID)).toMatchObject({
      creator: `Vera_${kind}`,
      creatorAccount: `Vera_${kind}`,
    });
    expect(row(guests.body.matchID)).toMatchObject({ creator: 'Walter', creatorAccount: null });
  });

  it('pages finished games, PROFILE_PAGE_SIZE at a time, the latest first', async () => {
    const pager = browser();
    expect((await pager.signUp(on.a, `Pages_${kind}`)).status).toBe(201);
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      const game = await played(pager, 'US');
      await resign(game.created.matchID, game.joined);
      ids.push(game.created.matchID);
    }
    const first = (await profile(`Pages_${kind}`)).body;
    const second = (await profile(`Pages_${kind}`, 2)).body;
    expect([first.finished.length, first.more, second.finished.length, second.more]).toEqual([
      20,
      true,
      1,
      false,
    ]);
    expect([...first.finished, ...second.finished].map((g) => g.matchID).sort()).toEqual(
      ids.sort(),
    );
    expect(first.results.US).toEqual({ played: 21, won: 21, lost: 0 });
  });
});
