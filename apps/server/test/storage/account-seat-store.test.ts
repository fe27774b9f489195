import { expect, it } from 'vitest';
import { signUpOf } from './accounts.ts';
import { describeContract, newRecord, storedMatch } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describeContract('the account seat store', (backend) => {
  it('lists the seats an account joined on either instance, the latest first, each once', async () => {
    const up = signUpOf('jack', 'jack', 'jack');
    await backend.stores().accounts.signUp(up);
    const first = await storedMatch(backend.stores());
    const second = await storedMatch(backend.stores());
    const seat = (matchID: string, minute: number) => ({
      matchID,
      seat: '0',
      credentials: `creds-${matchID}`,
      joinedAt: at(minute),
    });
    await backend.stores().accountSeats.addSeats(up.account.accountID, [seat(first, 1)]);
    await backend
      .twin()
      .accountSeats.addSeats(up.account.accountID, [seat(second, 2), seat(first, 3)]);
    expect(await backend.stores().accountSeats.seatsOf(up.account.accountID)).toEqual([
      seat(second, 2),
      seat(first, 1),
    ]);
  });
});

describeContract("the account seat store's profile reads", (backend) => {
  /** A stored match the account holds seat 0 of (the US), finished `minute` minutes in. */
  const heldMatch = async (
    accountID: string,
    minute: number,
    options: { won?: boolean; status?: 'playing' | 'finished'; visibility?: 'private' } = {},
  ) => {
    const { match, initial } = newRecord('waiting');
    match.visibility = options.visibility ?? 'public';
    match.players[1] = { seat: '1', side: 'USSR', name: 'Boris', credentialsHash: 'x' };
    match.status = options.status ?? 'finished';
    match.updatedAt = at(minute);
    if (match.status === 'finished') {
      const winner = options.won === false ? '1' : '0';
      match.result = { winner, winnerSide: winner === '0' ? 'US' : 'USSR', reason: 'resigned' };
    }
    await backend.stores().matches.createMatch(match, initial);
    await backend
      .stores()
      .accountSeats.addSeats(accountID, [
        { matchID: match.matchID, seat: '0', credentials: 'c', joinedAt: at(minute) },
      ]);
    return match.matchID;
  };

  it("tallies the account's results by side, private games counted, open ones not", async () => {
    const up = signUpOf('Tally', 'tally', 'tally');
    await backend.stores().accounts.signUp(up);
    const id = up.account.accountID;
    await heldMatch(id, 1, { won: true });
    await heldMatch(id, 2, { won: false });
    await heldMatch(id, 3, { won: true, visibility: 'private' });
    await heldMatch(id, 4, { status: 'playing' });
    expect(await backend.twin().accountSeats.tallyOf(id)).toEqual([
      { side: 'US', played: 3, won: 2 },
    ]);
  });

  it('pages finished games the latest first, lists no private game, and names the opponent', async () => {
    const up = signUpOf('Pager', 'pager', 'pager');
    await backend.stores().accounts.signUp(up);
    const id = up.account.accountID;
    const finished: string[] = [];
    for (let minute = 10; minute < 35; minute++) finished.push(await heldMatch(id, minute));
    await heldMatch(id, 40, { visibility: 'private' });
    const playing = await heldMatch(id, 41, { status: 'playing' });
    const latestFirst = finished.toReversed();
    const page = (offset: number) =>
      backend.twin().accountSeats.gamesOf(id, 'finished', 10, offset);
    expect((await page(0)).map((g) => g.matchID)).toEqual(latestFirst.slice(0, 10));
    expect((await page(20)).map((g) => g.matchID)).toEqual(latestFirst.slice(20));
    const current = await backend.twin().accountSeats.gamesOf(id, 'current', 10, 0);
    expect(current).toEqual([
      expect.objectContaining({
        matchID: playing,
        side: 'US',
        status: 'playing',
        opponent: 'Boris',
        opponentAccount: null,
      }),
    ]);
  });

  it("names an account holding a seat, and no deleted account's", async () => {
    const kept = signUpOf('Keeper', 'keeper', 'keeper');
    const gone = signUpOf('Goner', 'goner', 'goner');
    await backend.stores().accounts.signUp(kept);
    await backend.stores().accounts.signUp(gone);
    const matchID = await heldMatch(kept.account.accountID, 50);
    await backend
      .stores()
      .accountSeats.addSeats(gone.account.accountID, [
        { matchID, seat: '1', credentials: 'c', joinedAt: at(51) },
      ]);
    expect(await backend.twin().accountSeats.holdersOf([matchID])).toEqual([
      { matchID, seat: '0', username: 'Keeper' },
      { matchID, seat: '1', username: 'Goner' },
    ]);
    const [game] = await backend
      .twin()
      .accountSeats.gamesOf(kept.account.accountID, 'finished', 1, 0);
    expect(game?.opponentAccount).toBe('Goner');
    await backend.stores().accounts.deleteAccount(gone.account.accountID, 'deleted player', at(52));
    expect(await backend.twin().accountSeats.holdersOf([matchID])).toEqual([
      { matchID, seat: '0', username: 'Keeper' },
    ]);
    const [after] = await backend
      .twin()
      .accountSeats.gamesOf(kept.account.accountID, 'finished', 1, 0);
    expect(after).toMatchObject({ opponent: 'deleted player', opponentAccount: null });
  });
});
