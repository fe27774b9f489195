import net from 'node:net';
import { DEFAULT_DECK, type State } from '@iron-curtain/game';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initialState } from '../src/match/engine.ts';
import { hashSecret, newMatchID, newSeed } from '../src/ops/secrets.ts';
import { openPostgresStore } from '../src/storage/postgres.ts';
import type { MatchRecord, MoveRecord, Store, StoredState } from '../src/storage/store.ts';
import { deckInfoOf, dropSchema, POSTGRES_URL, uniqueSchema } from './support.ts';

/**
 * A TCP relay to Postgres that can cut a connection the moment it carries a given
 * statement, before Postgres sees it: the store's connection dies mid-request.
 */
async function startRelay(): Promise<{
  url: string;
  cutOn: (text: string | null) => void;
  cuts: () => number;
  close: () => Promise<void>;
}> {
  const target = new URL(POSTGRES_URL);
  let cutting: string | null = null;
  let cuts = 0;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => undefined);
    }
    client.on('data', (chunk: Buffer) => {
      if (cutting !== null && chunk.includes(cutting)) {
        cuts++;
        client.destroy();
        upstream.destroy();
        return;
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(POSTGRES_URL);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    cutOn: (text) => {
      cutting = text;
    },
    cuts: () => cuts,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function newMatch(): { match: MatchRecord; initial: StoredState } {
  const now = new Date().toISOString();
  const match: MatchRecord = {
    matchID: newMatchID(),
    visibility: 'public',
    status: 'playing',
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck: deckInfoOf(DEFAULT_DECK),
    setupData: { sides: { '0': 'US', '1': 'USSR' } },
    seed: newSeed(),
    inviteHash: hashSecret('invite'),
    players: [
      { seat: '0', side: 'US', name: 'Ann', credentialsHash: hashSecret('ann') },
      { seat: '1', side: 'USSR', name: 'Bo', credentialsHash: hashSecret('bo') },
    ],
    createdAt: now,
    updatedAt: now,
    result: null,
  };
  return { match, initial: initialState(match) };
}

function firstMove(state: StoredState): { next: StoredState; move: MoveRecord } {
  const next = structuredClone(state);
  next._stateID = state._stateID + 1;
  (next.G as State).marker = 1;
  return {
    next,
    move: {
      stateID: next._stateID,
      seat: '1',
      move: 'chooseFirstPlayer',
      args: ['US'],
      entries: [],
      at: new Date().toISOString(),
    },
  };
}

describe('the Postgres store, its connection lost while it stores a group of moves', () => {
  const schema = uniqueSchema();
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let store: Store;

  beforeAll(async () => {
    relay = await startRelay();
    store = await openPostgresStore(relay.url, schema);
  });
  afterAll(async () => {
    await store.close();
    await relay.close();
    await dropSchema(schema);
  });

  it('refuses every move of the group, writes none of them, and stores the next moves once the connection is back', async () => {
    const matches = Array.from({ length: 4 }, newMatch);
    for (const { match, initial } of matches) await store.createMatch(match, initial);
    const moves = matches.map(({ initial }) => firstMove(initial));
    const commitAll = () =>
      Promise.allSettled(
        matches.map(({ match }, i) => {
          const { next, move } = moves[i] as (typeof moves)[number];
          return store.commitMove(match.matchID, 0, next, move, null);
        }),
      );

    relay.cutOn('json_to_recordset');
    const lost = await commitAll();
    expect(lost.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    // The group was cut, then each move alone.
    expect(relay.cuts()).toBe(1 + matches.length);

    relay.cutOn(null);
    for (const { match, initial } of matches) {
      expect(await store.loadState(match.matchID)).toEqual(initial);
      expect(await store.readMoves(match.matchID)).toHaveLength(0);
    }
    const back = await commitAll();
    expect(back).toEqual(matches.map(() => ({ status: 'fulfilled', value: true })));
    for (const [i, { match }] of matches.entries()) {
      expect(await store.loadState(match.matchID)).toEqual(
        (moves[i] as (typeof moves)[number]).next,
      );
    }
  });
});
