import type { Seat, State } from '@iron-curtain/game';
import {
  MAX_MY_GAMES,
  type MyGame,
  type MyGameRefused,
  type MyGamesResponse,
} from '@iron-curtain/protocol';
import { describe, expect, it, vi } from 'vitest';
import { hashSecret, newCredentials } from '../src/ops/secrets.ts';
import {
  createAndJoin,
  decider,
  type GameClient,
  pickMove,
  playOut,
  prng,
  request,
  type StoreKind,
  seatClient,
  serverOnStore,
} from './support.ts';

type Held = { matchID: string; seat: Seat; credentials: string };

/** Every string in an answer, keys included, except the deck's description (public). */
function stringsOf(value: unknown, out: string[] = [], key = ''): string[] {
  if (key === 'deck') return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsOf(v, out, k);
    }
  }
  return out;
}

/** Cards `viewer` may not know: the opponent's hand, the reserve, the opponent's aftermath card. */
function hiddenFrom(G: State, viewer: Seat): Set<string> {
  const hidden = new Set<string>(G.reserve);
  const other: Seat = viewer === '0' ? '1' : '0';
  for (const card of G.hands[other]) hidden.add(card);
  const aftermath = G.aftermath[other];
  if (aftermath !== null && G.finalScoring === null) hidden.add(aftermath);
  return hidden;
}

describe.each(['sqlite', 'postgres'] as StoreKind[])('my games on the %s store', (kind) => {
  const server = serverOnStore(kind);
  const ask = (seats: unknown[]) =>
    request<MyGamesResponse>(`${server().url}/api/my-games`, 'POST', { seats });
  const gameOf = async (held: Held): Promise<MyGame> => {
    const answer = await ask([held]);
    expect(answer.status).toBe(200);
    return answer.body.games[0] as MyGame;
  };

  it('follows a match from waiting through play to its end, for both seats', async () => {
    const created = await request<{ matchID: string; credentials: string }>(
      `${server().url}/api/matches`,
      'POST',
      { name: 'Ann', side: 'US', clockMinutes: 30 },
    );
    const { matchID } = created.body;
    const ann: Held = { matchID, seat: '0', credentials: created.body.credentials };
    expect(await gameOf(ann)).toMatchObject({
      matchID,
      seat: '0',
      side: 'US',
      status: 'waiting',
      opponent: { name: null, side: 'USSR' },
      turn: null,
      result: null,
      clock: { perPlayerMs: 1_800_000, running: null },
      deadline: null,
      lastMove: null,
    });

    const joined = await createAndJoin(server().url, { side: 'US' });
    const first: Held = {
      matchID: joined.created.matchID,
      seat: '0',
      credentials: joined.created.credentials,
    };
    const second: Held = {
      matchID: joined.created.matchID,
      seat: '1',
      credentials: joined.joined.credentials,
    };
    const seats: Record<Seat, GameClient> = {
      '0': await seatClient(server().url, first.matchID, '0', first.credentials),
      '1': await seatClient(server().url, first.matchID, '1', second.credentials),
    };
    const toMove = decider(seats['0']) as Seat;
    const answer = await ask([first, second]);
    expect(answer.body.games).toEqual([
      expect.objectContaining({
        seat: '0',
        side: 'US',
        status: 'playing',
        opponent: { name: 'Boris', side: 'USSR' },
        turn: toMove === '0' ? 'you' : 'opponent',
        lastMove: null,
        clock: null,
      }),
      expect.objectContaining({
        seat: '1',
        side: 'USSR',
        opponent: { name: 'Ann', side: 'US' },
        turn: toMove === '1' ? 'you' : 'opponent',
      }),
    ]);

    const random = prng(32);
    const mover = seats[toMove];
    const ack = await mover.move(pickMove(mover, random));
    expect(ack.ok).toBe(true);
    await seats['0'].until(() => (seats['0'].state?.stateID ?? 0) >= 1, 'the first move');
    const after = await gameOf(first);
    expect(after.lastMove).toMatchObject({
      seat: toMove,
      side: toMove === '0' ? 'US' : 'USSR',
      entries: seats['0'].log,
    });
    expect(after.lastMove?.entries.length).toBeGreaterThan(0);
    const next = decider(seats['0']) as Seat;
    expect(after.turn).toBe(next === '0' ? 'you' : 'opponent');
    expect(Date.parse(after.updatedAt)).toBeGreaterThanOrEqual(Date.parse(answer.body.at) - 1);

    await playOut(seats, [], random);
    const result = seats['0'].gameover;
    const [end0, end1] = (await ask([first, second])).body.games as MyGame[];
    expect(end0).toMatchObject({ status: 'finished', turn: null });
    expect(end0?.result).toMatchObject({ winnerSide: result?.winnerSide });
    expect(end1?.result).toEqual(end0?.result);
    expect(end0?.lastMove?.entries.at(-1)).toMatchObject({ type: 'gameOver' });
    seats['0'].close();
    seats['1'].close();
  });

  it('answers a forged or borrowed credential with an error and nothing of the match', async () => {
    const { created, joined } = await createAndJoin(server().url, { side: 'US' });
    const { matchID } = created;
    const real: Held = { matchID, seat: '0', credentials: created.credentials };
    const forged: Held = { matchID, seat: '0', credentials: newCredentials() };
    const borrowed: Held = { matchID, seat: '0', credentials: joined.credentials };
    const hashed: Held = { matchID, seat: '1', credentials: hashSecret(joined.credentials) };
    const gone: Held = { matchID: 'NoSuchMatch123', seat: '1', credentials: newCredentials() };
    const answer = await ask([forged, real, borrowed, hashed, gone]);
    expect(answer.status).toBe(200);
    const refused = (held: Held, code: MyGameRefused['error']['code']) => ({
      matchID: held.matchID,
      seat: held.seat,
      error: { code, message: expect.any(String) },
    });
    expect(answer.body.games).toEqual([
      refused(forged, 'BAD_CREDENTIALS'),
      expect.objectContaining({ matchID, seat: '0', opponent: { name: 'Boris', side: 'USSR' } }),
      refused(borrowed, 'BAD_CREDENTIALS'),
      refused(hashed, 'BAD_CREDENTIALS'),
      refused(gone, 'NOT_FOUND'),
    ]);
    // Nothing of the credentials comes back, not even the real ones.
    for (const secret of [created.credentials, joined.credentials]) {
      expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toContain(hashSecret(secret));
    }
  });

  it('never names a card the seat may not know', async () => {
    const { created, joined } = await createAndJoin(server().url);
    const { matchID } = created;
    const credentials: Record<Seat, string> = {
      '0': created.credentials,
      '1': joined.credentials,
    };
    const seats: Record<Seat, GameClient> = {
      '0': await seatClient(server().url, matchID, '0', credentials['0']),
      '1': await seatClient(server().url, matchID, '1', credentials['1']),
    };
    const random = prng(7);
    let checked = 0;
    // On to the end (or 400 moves): through round 2 too, where aftermath cards are held back.
    for (let moves = 0; moves < 400 && seats['0'].gameover === undefined; moves += 1) {
      const G = (await server().stores.matches.loadState(matchID))?.G as State;
      for (const seat of ['0', '1'] as const) {
        const hidden = hiddenFrom(G, seat);
        const game = await gameOf({ matchID, seat, credentials: credentials[seat] });
        const leaked = stringsOf(game).filter((s) => hidden.has(s));
        expect(leaked, `state ${moves}, seat ${seat}`).toEqual([]);
        checked += 1;
      }
      const mover = seats[decider(seats['0']) as Seat];
      const target = (mover.state?.stateID ?? 0) + 1;
      expect((await mover.move(pickMove(mover, random))).ok).toBe(true);
      await seats['0'].until(() => (seats['0'].state?.stateID ?? 0) >= target, `state ${target}`);
    }
    expect(checked).toBeGreaterThan(40);
    seats['0'].close();
    seats['1'].close();
  });

  it('refuses more than the largest list, and a body that is not a list of seats, clearly', async () => {
    const { created } = await createAndJoin(server().url);
    const held = { matchID: created.matchID, seat: '0', credentials: created.credentials };
    const tooMany = await ask(Array.from({ length: MAX_MY_GAMES + 1 }, () => held));
    expect(tooMany.status).toBe(400);
    expect(tooMany.text).toContain(`at most ${MAX_MY_GAMES} matches`);
    const most = await ask(Array.from({ length: MAX_MY_GAMES }, () => held));
    expect(most.status).toBe(200);
    expect(most.body.games).toEqual([
      expect.objectContaining({ matchID: created.matchID, seat: '0', status: 'playing' }),
    ]);

    const bad = await ask([{ matchID: created.matchID, seat: '2', credentials: 'x' }]);
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('BAD_REQUEST');
    const get = await request(`${server().url}/api/my-games`, 'GET');
    expect(get.status).toBe(405);
  });

  it('a seat named again is answered once, and each match read once', async () => {
    // The sides asked for: a match created without one draws them.
    const { created, joined } = await createAndJoin(server().url, { side: 'US' });
    const ann: Held = { matchID: created.matchID, seat: '0', credentials: created.credentials };
    const boris: Held = { matchID: created.matchID, seat: '1', credentials: joined.credentials };
    const other = await createAndJoin(server().url);
    const carl: Held = {
      matchID: other.created.matchID,
      seat: '0',
      credentials: other.created.credentials,
    };
    const forged: Held = { ...carl, credentials: newCredentials() };
    const reads = vi.spyOn(server().stores.matches, 'getMatchProgress');
    try {
      const answer = await ask([
        ...Array.from({ length: 100 }, () => ann),
        forged,
        boris,
        ...Array.from({ length: 96 }, () => ann),
        forged,
        carl,
      ]);
      expect(answer.status).toBe(200);
      // In the order first named; the same seat named with other credentials is answered for those.
      expect(answer.body.games).toEqual([
        expect.objectContaining({ matchID: ann.matchID, seat: '0', side: 'US' }),
        {
          matchID: carl.matchID,
          seat: '0',
          error: { code: 'BAD_CREDENTIALS', message: expect.any(String) },
        },
        expect.objectContaining({ matchID: boris.matchID, seat: '1', side: 'USSR' }),
        expect.objectContaining({ matchID: carl.matchID, seat: '0', status: 'playing' }),
      ]);
      expect(reads.mock.calls.map(([matchID]) => matchID).sort()).toEqual(
        [ann.matchID, carl.matchID].sort(),
      );
    } finally {
      reads.mockRestore();
    }
  });

  it('reads neither a state nor a move log, however long the match', async () => {
    const { created, joined } = await createAndJoin(server().url);
    const { matchID } = created;
    const seats: Record<Seat, GameClient> = {
      '0': await seatClient(server().url, matchID, '0', created.credentials),
      '1': await seatClient(server().url, matchID, '1', joined.credentials),
    };
    const random = prng(50);
    // Past a snapshot's interval, so a state load would replay the moves since.
    for (let target = 1; target <= 20 && seats['0'].gameover === undefined; target += 1) {
      const mover = seats[decider(seats['0']) as Seat];
      expect((await mover.move(pickMove(mover, random))).ok).toBe(true);
      for (const seat of ['0', '1'] as const) {
        await seats[seat].until(
          () => (seats[seat].state?.stateID ?? 0) >= target,
          `state ${target}`,
        );
      }
    }
    const { matches } = server().stores;
    const loads = vi.spyOn(matches, 'loadState');
    const logs = vi.spyOn(matches, 'readMoves');
    try {
      const game = await gameOf({ matchID, seat: '1', credentials: joined.credentials });
      const moves = await matches.readMoves(matchID);
      const last = moves.at(-1);
      expect(game.lastMove).toMatchObject({
        seat: last?.seat,
        entries: last?.entries,
        at: last?.at,
      });
      expect(game.turn).toBe(decider(seats['0']) === '1' ? 'you' : 'opponent');
      expect(loads).not.toHaveBeenCalled();
      expect(logs).toHaveBeenCalledTimes(1);
    } finally {
      loads.mockRestore();
      logs.mockRestore();
    }
    seats['0'].close();
    seats['1'].close();
  });
});
