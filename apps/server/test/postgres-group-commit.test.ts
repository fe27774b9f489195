import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stores } from '../src/storage/index.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { newRecord, successor } from './storage/contract.ts';
import { dropSchema, POSTGRES_URL, uniqueSchema } from './support.ts';

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

describe('the Postgres store, its connection lost while it stores a group of moves', () => {
  const schema = uniqueSchema();
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let store: Stores;

  beforeAll(async () => {
    relay = await startRelay();
    store = await openPostgresStores(relay.url, schema);
  });
  afterAll(async () => {
    await store.close();
    await relay.close();
    await dropSchema(schema);
  });

  it('refuses every move of the group, writes none of them, and stores the next moves once the connection is back', async () => {
    const matches = Array.from({ length: 4 }, () => newRecord());
    for (const { match, initial } of matches) await store.matches.createMatch(match, initial);
    const moves = matches.map(({ initial }) => successor(initial, 1));
    const commitAll = () =>
      Promise.allSettled(
        matches.map(({ match }, i) => {
          const { next, move } = moves[i] as (typeof moves)[number];
          return store.matches.commitMove(match.matchID, 0, next, move, null);
        }),
      );

    relay.cutOn('json_to_recordset');
    const lost = await commitAll();
    expect(lost.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    // The group was cut, then each move alone.
    expect(relay.cuts()).toBe(1 + matches.length);

    relay.cutOn(null);
    for (const { match, initial } of matches) {
      expect(await store.matches.loadState(match.matchID)).toEqual(initial);
      expect(await store.matches.readMoves(match.matchID)).toHaveLength(0);
    }
    const back = await commitAll();
    expect(back).toEqual(matches.map(() => ({ status: 'fulfilled', value: true })));
    for (const [i, { match }] of matches.entries()) {
      expect(await store.matches.loadState(match.matchID)).toEqual(
        (moves[i] as (typeof moves)[number]).next,
      );
    }
  });
});
