import fs from 'node:fs';
import { legalMoves, type Seat, type State } from '@iron-curtain/game';
import { afterAll, describe, expect, it } from 'vitest';
import { BotCredentials } from '../src/bots/credentials.ts';
import { DeckLibrary } from '../src/lobby/deck-library.ts';
import { Lobby } from '../src/lobby/lobby.ts';
import { MatchEngine } from '../src/match/engine.ts';
import { PresenceBook } from '../src/match/presence-book.ts';
import { systemTime } from '../src/ops/time.ts';
import { playedWith } from '../src/reducer/played-with.ts';
import type { Stores } from '../src/storage/stores.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  pickMove,
  prng,
  type StoreKind,
  seatClient,
  startServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

/** These tests only play: no match ends through the lobby. */
const noEnding = () => Promise.reject(new Error('no match ends in these tests'));

/** A lobby on the stores, alone: nobody is told of its changes. */
const lobbyOn = (s: Stores) =>
  new Lobby(
    s.matches,
    new PresenceBook(),
    (_matchID, write) => write(),
    () => undefined,
    noEnding,
    new DeckLibrary(s.decks, systemTime),
    new BotCredentials(s.secrets),
    s.accountSeats,
  );

describe.each(['sqlite', 'postgres'] as StoreKind[])('the engine on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let store: Stores | undefined;
  afterAll(async () => {
    await store?.close();
    if (kind === 'postgres') await dropSchema(where);
    else fs.rmSync(where, { recursive: true, force: true });
  });

  it('runs moves of many matches at once, each in order', async () => {
    store = await openTestStores(kind, where);
    const s = store;
    const lobby = lobbyOn(s);
    const engine = new MatchEngine(s.matches);
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const created = await lobby.create({
        name: 'A',
        opponent: 'human',
        side: 'random',
        variants: {},
        visibility: 'private',
      });
      const invite = decodeURIComponent(created.links.invite.split('#')[1] ?? '');
      await lobby.join(created.matchID, { name: 'B', invite });
      ids.push(created.matchID);
    }
    const counts = await Promise.all(
      ids.map(async (matchID, i) => {
        const random = prng(i);
        let made = 0;
        for (let n = 0; n < 12; n++) {
          const state = (await s.matches.loadState(matchID)) as NonNullable<
            Awaited<ReturnType<Stores['matches']['loadState']>>
          >;
          const match = await s.matches.getMatch(matchID);
          if (!match) throw new Error('match not stored');
          const G = state.G as State;
          const seat = G.decision?.seat as Seat;
          const moves = legalMoves(playedWith(match).rules, G, seat);
          const move = moves[Math.floor(random() * moves.length)];
          if (!move) break;
          const result = await engine.move(match, {
            seat,
            stateID: state._stateID,
            move: move.move,
            args: move.args,
          });
          expect(result).toMatchObject({ ok: true });
          made += 1;
        }
        return made;
      }),
    );
    expect(counts).toEqual(Array(8).fill(12));
    for (const matchID of ids) {
      expect((await s.matches.readMoves(matchID)).map((m) => m.stateID)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    }
  });

  it('a writer holding a state another writer moved past is refused as stale and stores nothing', async () => {
    store ??= await openTestStores(kind, where);
    const s = store;
    const lobby = lobbyOn(s);
    const created = await lobby.create({
      name: 'A',
      opponent: 'human',
      side: 'random',
      variants: {},
      visibility: 'private',
    });
    const invite = decodeURIComponent(created.links.invite.split('#')[1] ?? '');
    await lobby.join(created.matchID, { name: 'B', invite });
    const [here, elsewhere] = [new MatchEngine(s.matches), new MatchEngine(s.matches)];
    const random = prng(7);
    type Loaded = NonNullable<Awaited<ReturnType<Stores['matches']['loadState']>>>;
    const load = async () => (await s.matches.loadState(created.matchID)) as Loaded;
    /** A legal move on `state`, made through `engine`. */
    const match = await s.matches.getMatch(created.matchID);
    if (!match) throw new Error('match not stored');
    const moveOn = (engine: MatchEngine, state: Loaded) => {
      const G = state.G as State;
      const seat = G.decision?.seat as Seat;
      const moves = legalMoves(playedWith(match).rules, G, seat);
      const move = moves[Math.floor(random() * moves.length)] as (typeof moves)[number];
      return engine.move(match, { seat, stateID: state._stateID, ...move }, undefined, state);
    };
    expect(await moveOn(here, await load())).toMatchObject({ ok: true });
    const first = await load();
    expect(await moveOn(elsewhere, first)).toMatchObject({ ok: true });
    const stored = await load();
    // `here` still holds state 1: a move on it reaches the commit, which refuses it.
    expect(await moveOn(here, first)).toMatchObject({
      ok: false,
      error: { code: 'STALE_STATE' },
    });
    expect(await load()).toEqual(stored);
    expect(await s.matches.readMoves(created.matchID)).toHaveLength(2);
    expect(await moveOn(here, stored)).toMatchObject({ ok: true });
    expect(await s.matches.readMoves(created.matchID)).toHaveLength(3);
  });
});

describe('a failing store', () => {
  it('fails the move with SERVER_ERROR, keeps the process and the match alive', async () => {
    const dir = tempDir();
    const real = await openTestStores('sqlite', dir);
    let failing = false;
    const stores: Stores = {
      ...real,
      kind: real.kind,
      matches: {
        ...real.matches,
        commitMove: (...args) => {
          if (failing) return Promise.reject(new Error('disk on fire'));
          return real.matches.commitMove(...args);
        },
      },
    };
    const server = await startServer({ stores });
    const { created, joined } = await createAndJoin(server.url);
    const seats = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
    const decider = seats[seats['0'].view.decision?.seat as Seat];
    const before = await real.matches.loadState(created.matchID);
    failing = true;
    const syncs = decider.syncs;
    const ack = await decider.move(pickMove(decider, prng(4)));
    expect(ack).toMatchObject({ ok: false, error: { code: 'SERVER_ERROR' } });
    await decider.until(() => decider.syncs > syncs, 're-sync');
    expect(await real.matches.loadState(created.matchID)).toEqual(before);
    failing = false;
    expect(await decider.move(pickMove(decider, prng(4)))).toEqual({ ok: true });
    seats['0'].close();
    seats['1'].close();
    await server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
