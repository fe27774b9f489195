import { randomBytes } from 'node:crypto';
import type { Seat } from '@iron-curtain/game';
import { expect, it } from 'vitest';
import { hashSecret } from '../../src/ops/secrets.ts';
import { NEW_PLAYER, ratedAfter } from '../../src/ratings/glicko2.ts';
import type { MatchRecord, RatingPool, Stores } from '../../src/storage/index.ts';
import { describeContract, newRecord, successor } from './contract.ts';

const accountID = () => randomBytes(9).toString('base64url');

/** A rated match in play between two accounts (seat 0, seat 1), stored. */
async function ratedMatch(
  stores: Stores,
  accounts: readonly [string, string],
  pool: RatingPool = 'live',
): Promise<MatchRecord> {
  const { match, initial } = newRecord('playing');
  const rated: MatchRecord = {
    ...match,
    rated: true,
    pool,
    players: [
      { ...match.players[0], accountID: accounts[0] },
      {
        ...match.players[1],
        name: 'Boris',
        credentialsHash: hashSecret('boris'),
        accountID: accounts[1],
      },
    ],
  };
  await stores.matches.createMatch(rated, initial);
  return rated;
}

const won = (winner: Seat) =>
  ({ winner, winnerSide: winner === '0' ? 'US' : 'USSR', reason: 'resigned' }) as const;

describeContract('the rating store', (backend) => {
  it('rates a rated match with its result, once: a second finish changes nothing', async () => {
    const [ann, boris] = [accountID(), accountID()];
    const match = await ratedMatch(backend.stores(), [ann, boris], 'correspondence');
    const at = new Date().toISOString();
    expect(await backend.stores().matches.finishMatch(match.matchID, won('1'), at)).toBe(true);
    expect(await backend.twin().matches.finishMatch(match.matchID, won('0'), at)).toBe(false);

    const expected = ratedAfter(NEW_PLAYER, [{ opponent: NEW_PLAYER, score: 1 }]);
    const stored = await backend.twin().ratings.ratingOf(boris, 'correspondence');
    expect(stored).toMatchObject({ games: 1, pool: 'correspondence' });
    expect(stored?.rating).toBeCloseTo(expected.rating, 9);
    expect(stored?.deviation).toBeCloseTo(expected.deviation, 9);
    expect(await backend.stores().ratings.ratingOf(ann, 'live')).toBeUndefined();
    expect(await backend.stores().ratings.historyOf(ann, 'correspondence')).toMatchObject([
      { matchID: match.matchID, games: 1, before: 1500 },
    ]);
    const finished = await backend.twin().matches.getMatch(match.matchID);
    expect(finished?.ratings?.map((r) => [r.seat, Math.sign(r.change)])).toEqual([
      ['0', -1],
      ['1', 1],
    ]);
  });

  it('marks a rated match that ends without a winner aborted, and one of a single account unrated, rating nobody', async () => {
    const ann = accountID();
    const aborted = await ratedMatch(backend.stores(), [ann, accountID()]);
    await backend.stores().matches.finishMatch(aborted.matchID, null, new Date().toISOString());
    expect(await backend.twin().matches.getMatch(aborted.matchID)).toMatchObject({
      unrated: 'aborted',
    });

    const { match, initial } = newRecord('waiting');
    await backend.stores().matches.createMatch(
      {
        ...match,
        rated: true,
        pool: 'live',
        players: [{ ...match.players[0], accountID: ann }, match.players[1]],
      },
      initial,
    );
    const at = new Date().toISOString();
    expect(
      await backend
        .twin()
        .matches.claimSeat(match.matchID, '1', 'Ann', hashSecret('again'), at, ann),
    ).toBe(true);
    await backend.stores().matches.finishMatch(match.matchID, won('0'), at);
    expect(await backend.twin().matches.getMatch(match.matchID)).toMatchObject({
      unrated: 'same-account',
      status: 'finished',
    });
    expect(await backend.stores().ratings.ratingOf(ann, 'live')).toBeUndefined();
  });

  it('counts every one of many rated matches of overlapping players ending at once on two instances, each once and in order', async () => {
    const players = Array.from({ length: 5 }, accountID);
    const matches: { match: MatchRecord; winner: Seat }[] = [];
    // Every pair plays several matches: each player is in many of them.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < players.length; i++) {
        const pair = [players[i], players[(i + round + 1) % players.length]] as [string, string];
        if (pair[0] === pair[1]) continue;
        const match = await ratedMatch(backend.stores(), pair);
        matches.push({ match, winner: (round + i) % 2 === 0 ? '0' : '1' });
      }
    }
    const at = new Date().toISOString();
    // Half end by the lobby (resignation), half by the move that ends the game, alternately on
    // either instance, all at once.
    const ended = await Promise.all(
      matches.map(async ({ match, winner }, i) => {
        const stores = i % 2 === 0 ? backend.stores() : backend.twin();
        if (i % 4 < 2) return stores.matches.finishMatch(match.matchID, won(winner), at);
        const state = await stores.matches.loadState(match.matchID);
        if (!state) throw new Error('no state');
        const { next, move } = successor(state, 1);
        return stores.matches.commitMove(match.matchID, state._stateID, next, move, won(winner));
      }),
    );
    expect(ended.every(Boolean)).toBe(true);

    for (const player of players) {
      const played = matches.filter(({ match }) =>
        match.players.some((p) => p.accountID === player),
      );
      const history = await backend.twin().ratings.historyOf(player, 'live');
      expect(history.map((h) => h.games)).toEqual(played.map((_, i) => i + 1));
      expect(new Set(history.map((h) => h.matchID))).toEqual(
        new Set(played.map(({ match }) => match.matchID)),
      );
      // Each change starts where the one before it ended: none lost, none applied twice.
      for (let i = 1; i < history.length; i++) {
        expect(history[i]?.before).toBe(history[i - 1]?.after);
      }
      const rating = await backend.stores().ratings.ratingOf(player, 'live');
      expect(rating?.games).toBe(played.length);
      expect(rating?.rating).toBe(history.at(-1)?.after);
    }
  });
});
