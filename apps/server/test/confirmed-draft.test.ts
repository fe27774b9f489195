import {
  draftPlacements,
  legalMoves,
  type Move,
  type RulesContext,
  type Seat,
} from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchStore } from '../src/storage/index.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import type { Stores } from '../src/storage/stores.ts';
import {
  createAndJoin,
  decider,
  type GameClient,
  seatClient,
  startServer,
  type TestServer,
  tempDir,
} from './support.ts';

/** Store methods that only read: any other call writes. */
const READS = /^(get|load|list|read|ping)/;

type StoreWrite = { method: string; matchID: string | null };

/**
 * The stores, with every writing call to the match store counted by method name and match id
 * (the first argument where it is one): the deadline sweep writes on its own timer, for no match.
 */
function countingWrites(stores: Stores): { stores: Stores; writes: StoreWrite[] } {
  const writes: StoreWrite[] = [];
  const matches = new Proxy(stores.matches, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function' || typeof key !== 'string' || READS.test(key)) return value;
      return (...args: unknown[]) => {
        writes.push({ method: key, matchID: typeof args[0] === 'string' ? args[0] : null });
        return value.apply(target, args);
      };
    },
  }) as MatchStore;
  const counted = new Proxy(stores, {
    get: (target, key, receiver) =>
      key === 'matches' ? matches : Reflect.get(target, key, receiver),
  });
  return { stores: counted, writes };
}

/** The 'update' frames a client was sent, as they crossed the wire. */
const updateFrames = (client: GameClient) => client.wire.filter((p) => p.includes('["update"'));

describe('a confirmed draft on the server', () => {
  let server: TestServer;
  let storeWrites: StoreWrite[];
  let matchID: string;
  /** The writes made for this match, by method. */
  const writes = () => storeWrites.filter((w) => w.matchID === matchID).map((w) => w.method);
  const clients: GameClient[] = [];
  let seats: Record<Seat, GameClient>;
  let spectator: GameClient;

  beforeAll(async () => {
    const counting = countingWrites(openSqliteStores(tempDir(), { snapshots: true }));
    storeWrites = counting.writes;
    server = await startServer({ stores: counting.stores });
    const { created, joined } = await createAndJoin(server.url);
    matchID = created.matchID;
    seats = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    };
    spectator = await seatClient(server.url, created.matchID, null);
    clients.push(seats['0'], seats['1'], spectator);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server?.close();
  });

  const everyoneAt = (stateID: number) =>
    Promise.all(clients.map((c) => c.until(() => (c.state?.stateID ?? -1) >= stateID, 'state')));

  /** Plays on (Command whenever offered, cubes in target order) until a seat can draft `cubes` cubes. */
  async function untilADraftOf(cubes: number): Promise<{ mover: GameClient; draft: unknown[][] }> {
    for (let guard = 0; guard < 200; guard++) {
      const seat = decider(seats['0']) as Seat;
      const mover = seats[seat];
      const rules = mover.rules as RulesContext;
      const view = mover.view;
      if (view.decision?.kind === 'placeCubes') {
        const draft: unknown[][] = [];
        for (;;) {
          const drafted = draftPlacements(rules, view, seat, draft);
          const next = legalMoves(rules, drafted?.state ?? view, seat).find(
            (m) => m.move === 'placeCube',
          );
          if (!next || draft.length === cubes) break;
          draft.push(next.args);
        }
        if (draft.length === cubes) return { mover, draft };
      }
      const moves = legalMoves(rules, view, seat);
      const move = (moves.find((m) => m.move === 'chooseAction' && m.args[0] === 'command') ??
        moves.find((m) => m.move === 'placeCube') ??
        moves[0]) as Move;
      const at = (mover.state?.stateID ?? 0) + 1;
      const ack = await mover.move(move);
      if (!ack.ok) throw new Error(`refused: ${ack.error.message}`);
      await everyoneAt(at);
    }
    throw new Error(`no seat could draft ${cubes} cubes`);
  }

  it('is one frame to the opponent and the spectators, and one store write', async () => {
    const { mover, draft } = await untilADraftOf(2);
    const opponent = seats[mover === seats['0'] ? '1' : '0'];
    const before = {
      opponent: updateFrames(opponent).length,
      spectator: updateFrames(spectator).length,
      mover: updateFrames(mover).length,
      spectatorLog: spectator.log.length,
      writes: writes().length,
      stateID: mover.state?.stateID ?? 0,
    };
    const ack = await mover.move({ move: 'placeCubes', args: [draft] });
    expect(ack).toEqual({ ok: true });
    await everyoneAt(before.stateID + 1);
    expect(updateFrames(opponent).length - before.opponent).toBe(1);
    expect(updateFrames(spectator).length - before.spectator).toBe(1);
    expect(updateFrames(mover).length - before.mover).toBe(1);
    expect(writes().slice(before.writes)).toEqual(['commitMove']);
    // The one frame carries every cube of the draft.
    const placed = spectator.log.slice(before.spectatorLog).filter((e) => e.type === 'place');
    expect(placed.map((e) => (e.type === 'place' ? [e.cardId] : []))).toEqual(
      draft.map(([card]) => [card]),
    );
    for (const c of clients) expect(c.state?.stateID).toBe(before.stateID + 1);
  });

  it('with an illegal cube is refused whole: nothing stored, nothing sent to the others', async () => {
    const { mover, draft } = await untilADraftOf(2);
    const opponent = seats[mover === seats['0'] ? '1' : '0'];
    const before = {
      opponent: updateFrames(opponent).length,
      spectator: updateFrames(spectator).length,
      writes: writes().length,
      state: structuredClone(mover.state),
    };
    const ack = await mover.move({ move: 'placeCubes', args: [[...draft, ['atlantis']]] });
    expect(ack.ok).toBe(false);
    if (!ack.ok) {
      expect(ack.error.code).toBe('INVALID_MOVE');
      expect(ack.error.message).toMatch(/^cube 3 of 3 \(\["atlantis"\]\): .*nothing was placed$/);
    }
    expect(writes().length).toBe(before.writes);
    expect(mover.state).toEqual(before.state);
    // The same draft without the bad cube, on the same state: had the refused one been stored or
    // sent, this one would be stale, or the others would have two frames now.
    const stateID = before.state?.stateID ?? 0;
    expect(await mover.move({ move: 'placeCubes', args: [draft] })).toEqual({ ok: true });
    await everyoneAt(stateID + 1);
    expect(updateFrames(opponent).length - before.opponent).toBe(1);
    expect(updateFrames(spectator).length - before.spectator).toBe(1);
    expect(writes().slice(before.writes)).toEqual(['commitMove']);
  });
});
