import type { Ack, ChatLine } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_LINES_KEPT } from '../src/storage/index.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import {
  createAndJoin,
  dropSchema,
  GameClient,
  openTestStores,
  POSTGRES_URL,
  type StoreKind,
  startServer,
  type TestServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

const PER_ADDRESS = 12;
const FLOODER = '203.0.113.40';

/** A spectator socket (no credentials needed) from `address`, synced with the match. */
async function spectator(url: string, matchID: string, address: string): Promise<GameClient> {
  const client = new GameClient(url, { headers: { 'x-forwarded-for': address } });
  client.matchID = matchID;
  const ack = await client.sync(matchID, null);
  if (!ack.ok) throw new Error(`sync refused: ${ack.error.message}`);
  return client;
}

const sayText = (client: GameClient, text: string): Promise<Ack> =>
  client.emit('chat', { matchID: client.matchID, kind: 'text', text });

/** Every socket says five lines at once (each socket's own burst): the answers. */
const flood = (clients: GameClient[]) =>
  Promise.all(
    clients.flatMap((client, i) =>
      Array.from({ length: 5 }, (_, n) => sayText(client, `flood ${i}.${n}`)),
    ),
  );

function expectCapped(answers: Ack[]) {
  expect(answers.filter((a) => a.ok)).toHaveLength(PER_ADDRESS);
  for (const refused of answers.filter((a) => !a.ok)) {
    expect(refused).toMatchObject({ ok: false, error: { code: 'CHAT_TOO_FAST' } });
  }
}

const env = {
  TRUST_PROXY: 'true',
  CHAT_LINES_PER_ADDRESS_PER_MINUTE: String(PER_ADDRESS),
};

describe('chat lines per address', () => {
  let server: TestServer;
  const clients: GameClient[] = [];
  beforeAll(async () => {
    server = await startServer({ env });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('are capped however many sockets the address opens; another address still talks', async () => {
    const { created } = await createAndJoin(server.url);
    for (let i = 0; i < 8; i++) clients.push(await spectator(server.url, created.matchID, FLOODER));
    expectCapped(await flood(clients));
    const neighbour = await spectator(server.url, created.matchID, '198.51.100.40');
    clients.push(neighbour);
    expect(await sayText(neighbour, 'still heard')).toEqual({ ok: true });
  });
});

describe('chat lines per address, with Redis', () => {
  const schema = uniqueSchema();
  const servers: TestServer[] = [];
  const clients: GameClient[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          env: {
            ...env,
            DATABASE_URL: POSTGRES_URL,
            DATABASE_SCHEMA: schema,
            REDIS_URL: 'redis://127.0.0.1:6379',
          },
          stores: await openPostgresStores(POSTGRES_URL, schema),
        }),
      );
    }
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers) await s.close();
    await dropSchema(schema);
  });

  it('are counted on all instances together', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { created } = await createAndJoin(a.url);
    for (let i = 0; i < 8; i++) {
      clients.push(await spectator((i % 2 === 0 ? a : b).url, created.matchID, FLOODER));
    }
    expectCapped(await flood(clients));
  });
});

describe.each(['sqlite', 'postgres'] as StoreKind[])('the chat history on %s', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer;
  const clients: GameClient[] = [];
  beforeAll(async () => {
    server = await startServer({ stores: await openTestStores(kind, where) });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
    if (kind === 'postgres') await dropSchema(where);
  });

  it(`keeps the last ${CHAT_LINES_KEPT} lines of each room, and a sync sends only those`, async () => {
    const { created } = await createAndJoin(server.url);
    const { matchID } = created;
    const at = new Date().toISOString();
    const said = CHAT_LINES_KEPT + 50;
    for (let i = 0; i < said; i++) {
      await server.stores.chat.addChatLine({
        matchID,
        room: 'spectators',
        seat: null,
        text: `s${i}`,
        at,
      });
    }
    for (let i = 0; i < 3; i++) {
      await server.stores.chat.addChatLine({
        matchID,
        room: 'players',
        seat: '0',
        text: `p${i}`,
        at,
      });
    }
    const stored = await server.stores.chat.readChat(matchID);
    const texts = (room: string) => stored.filter((l) => l.room === room).map((l) => l.text);
    expect(texts('spectators')).toEqual(
      Array.from({ length: CHAT_LINES_KEPT }, (_, i) => `s${said - CHAT_LINES_KEPT + i}`),
    );
    expect(texts('players')).toEqual(['p0', 'p1', 'p2']);

    const watcher = await spectator(server.url, matchID, '127.0.0.1');
    clients.push(watcher);
    const history = watcher.chat.find((m) => m.kind === 'history');
    const lines = (history?.kind === 'history' ? history.lines : []) as ChatLine[];
    expect(lines.map((l) => l.text)).toEqual(texts('spectators'));
  });
});
