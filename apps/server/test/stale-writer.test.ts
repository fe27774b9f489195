import { legalMoves, type Move, type RulesContext, type Seat } from '@iron-curtain/game';
import type { StateFrame } from '@iron-curtain/protocol';
import { afterAll, expect, it } from 'vitest';
import { type App, createApp } from '../src/app.ts';
import { frameFor } from '../src/match/engine.ts';
import { openRedisFanout } from '../src/match/fanout.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import type { Stores } from '../src/storage/index.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import {
  createAndJoin,
  decider,
  dropSchema,
  type GameClient,
  POSTGRES_URL,
  seatClient,
  uniqueSchema,
} from './support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const schema = uniqueSchema();
afterAll(() => dropSchema(schema));

/** One instance in this process, with its own connections to the shared Postgres and Redis. */
async function instance(wrap: (stores: Stores) => Stores = (s) => s) {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL,
    METRICS_PORT: '0',
  });
  const logger = createLogger(config);
  const stores = await openPostgresStores(POSTGRES_URL, schema);
  const fanout = await openRedisFanout(REDIS_URL, `iron-curtain:${schema}`, logger);
  const app: App = createApp(config, wrap(stores), logger, fanout);
  return { url: `http://127.0.0.1:${await app.listen()}`, app, stores };
}

/** Every frame a client is sent, in order. */
function framesOf(client: GameClient) {
  const frames: StateFrame[] = [];
  // Registered after the client's own handler: the state it holds once the update applied.
  client.socket.on('update', () => frames.push(client.state as StateFrame));
  return frames;
}

it('an instance that loses the compare-and-set refuses, re-syncs, and never sends its state', async () => {
  let arrived: () => void = () => undefined;
  const atCommit = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const a = await instance();
  // B's first write waits until A has stored the competing move.
  const b = await instance((stores) => ({
    ...stores,
    matches: {
      ...stores.matches,
      async commitMove(...args) {
        arrived();
        await gate;
        return stores.matches.commitMove(...args);
      },
    },
  }));
  const clients: GameClient[] = [];
  try {
    const { created, joined } = await createAndJoin(a.url);
    const { matchID } = created;
    const watchB = await seatClient(b.url, matchID, null);
    clients.push(watchB);
    const who = decider(watchB) as Seat;
    const credentials = who === '0' ? created.credentials : joined.credentials;
    const viaA = await seatClient(a.url, matchID, who, credentials);
    const viaB = await seatClient(b.url, matchID, who, credentials);
    clients.push(viaA, viaB);
    const seen = framesOf(watchB);
    const seenByMover = framesOf(viaB);

    const choices = legalMoves(viaA.rules as RulesContext, viaA.view, who);
    const [first, last] = [choices[0], choices.at(-1)] as Move[];
    expect(first).not.toEqual(last);
    const fromB = viaB.move(first as Move);
    await atCommit;
    expect(await viaA.move(last as Move)).toEqual({ ok: true });
    release();
    const lost = await fromB;
    expect(lost).toMatchObject({
      ok: false,
      error: { code: 'STALE_STATE', message: 'another move was stored first' },
    });
    await viaB.until(() => viaB.syncs === 2, 're-sync after the refusal');
    await watchB.until(() => watchB.state?.stateID === 1, 'state 1 through the fan-out');

    const stored = await a.stores.matches.loadState(matchID);
    if (!stored) throw new Error('no state');
    expect((await a.stores.matches.readMoves(matchID)).map((m) => [m.move, m.args])).toEqual([
      [last?.move, JSON.parse(JSON.stringify(last?.args))],
    ]);
    // Only the stored state ever reached B's sockets: once to the spectator, and to the
    // refused seat only through its re-sync.
    expect(seen).toEqual([JSON.parse(JSON.stringify(frameFor(stored, null)))]);
    expect(seenByMover).toEqual([]);
    expect(viaB.state).toEqual(JSON.parse(JSON.stringify(frameFor(stored, who))));
  } finally {
    release();
    for (const c of clients) c.close();
    await Promise.all([a.app.close(), b.app.close()]);
  }
}, 60_000);
