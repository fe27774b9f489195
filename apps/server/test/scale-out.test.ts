import fs from 'node:fs';
import path from 'node:path';
import type { Move, Seat } from '@iron-curtain/game';
import type { MatchInfo } from '@iron-curtain/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bundleServer } from '../scripts/bundle.ts';
import { frameFor } from '../src/match/engine.ts';
import { type Fanout, openRedisFanout } from '../src/match/fanout.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import type { Stores } from '../src/storage/index.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { exited, type Running, startProcess, stopProcess } from './processes.ts';
import {
  createAndJoin,
  decider,
  dropSchema,
  type GameClient,
  POSTGRES_URL,
  pickMove,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

/**
 * Two built servers on 127.0.0.1 sharing one Postgres schema and one Redis, as behind the
 * reverse proxy of the compose file's `scale` profile.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const schema = uniqueSchema();
const artifacts = path.join(
  import.meta.dirname,
  '..',
  'test-artifacts',
  `scale-out-${process.pid}`,
);
const bundle = path.join(artifacts, 'main.js');
let store: Stores;
const running: Running[] = [];
const inProcess: TestServer[] = [];
const clients: GameClient[] = [];

beforeAll(async () => {
  await bundleServer(bundle);
  store = await openPostgresStores(POSTGRES_URL, schema);
});
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(running.splice(0).map((r) => stopProcess(r.child)));
  await Promise.all(inProcess.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await store?.close();
  await dropSchema(schema);
  fs.rmSync(artifacts, { recursive: true, force: true });
});

async function instance(): Promise<Running> {
  const started = await startProcess([bundle], {
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: POSTGRES_URL,
    DATABASE_SCHEMA: schema,
    REDIS_URL,
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
    LOBBY_WRITES_PER_MINUTE: '100000',
    // Every client of a test comes from 127.0.0.1: lift the per-address socket limits too.
    SOCKETS_PER_ADDRESS: '100000',
    SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '100000',
    SOCKET_CONNECTS_AT_ONCE: '100000',
  } as Record<string, string>);
  running.push(started);
  return started;
}

async function seat(url: string, matchID: string, who: Seat | null, credentials?: string) {
  const client = await seatClient(url, matchID, who, credentials);
  clients.push(client);
  return client;
}

const reached = (watchers: GameClient[], stateID: number) =>
  Promise.all(
    watchers.map((c) => c.until(() => (c.state?.stateID ?? -1) >= stateID, `state ${stateID}`)),
  );

/** Every client holds exactly the stored state, as its seat sees it, and the stored log. */
async function expectStored(matchID: string, watchers: GameClient[]) {
  const stored = await store.matches.loadState(matchID);
  if (!stored) throw new Error('no stored state');
  const moves = await store.matches.readMoves(matchID);
  expect(moves.map((m) => m.stateID)).toEqual(moves.map((_, i) => i + 1));
  expect(stored._stateID).toBe(moves.length);
  const log = JSON.parse(JSON.stringify(moves.flatMap((m) => m.entries)));
  for (const c of watchers) {
    expect(c.state).toEqual(JSON.parse(JSON.stringify(frameFor(stored, c.playerID))));
    expect(c.log).toEqual(log);
  }
  return moves;
}

describe('two instances sharing Postgres and Redis', () => {
  it('a spectator on the other instance sees every move live, and presence crosses over', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const { created, joined } = await createAndJoin(a.url, { visibility: 'public' });
    const { matchID } = created;
    const players: Record<Seat, GameClient> = {
      '0': await seat(a.url, matchID, '0', created.credentials),
      '1': await seat(a.url, matchID, '1', joined.credentials),
    };
    const spectator = await seat(b.url, matchID, null);
    // Presence is counted on both instances: each side sees the other's sockets.
    await spectator.until(
      () => spectator.presence?.players['0'].connected === true,
      'the seats connected on A',
    );
    expect(spectator.presence?.players['1'].connected).toBe(true);
    await players['0'].until(() => players['0'].presence?.spectators === 1, 'the spectator on B');
    const info = await request<MatchInfo>(`${b.url}/api/matches/${matchID}`, 'GET');
    expect(info.body.players.map((p) => p.connected)).toEqual([true, true]);
    expect(info.body.spectators).toBe(1);

    const random = prng(7);
    let moves = 0;
    while (players['0'].gameover === undefined) {
      const mover = players[decider(players['0']) as Seat];
      const target = (mover.state?.stateID ?? 0) + 1;
      const ack = await mover.move(pickMove(mover, random));
      expect(ack).toEqual({ ok: true });
      moves += 1;
      // Live: the spectator on B has each state before the next move is made.
      await reached([spectator, players['0'], players['1']], target);
    }
    expect(spectator.gameover).toEqual(players['0'].gameover);
    expect(spectator.syncs).toBe(1);
    expect(spectator.refusals).toEqual([]);
    expect(await expectStored(matchID, [spectator, players['0'], players['1']])).toHaveLength(
      moves,
    );
    await spectator.until(() => spectator.presence?.status === 'finished', 'finished presence');
  }, 120_000);

  it('simultaneous moves through both instances: one stored, none lost or doubled', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const MATCHES = 3;
    const MOVES = 40;
    const race = async (i: number) => {
      const { created, joined } = await createAndJoin(a.url);
      const { matchID } = created;
      const credentials = { '0': created.credentials, '1': joined.credentials };
      // Each seat is held on both instances, and each instance has a spectator.
      const on = (url: string) =>
        Promise.all([
          seat(url, matchID, '0', credentials['0']),
          seat(url, matchID, '1', credentials['1']),
          seat(url, matchID, null),
        ]);
      const [onA, onB] = await Promise.all([on(a.url), on(b.url)]);
      const everyone = [...onA, ...onB];
      const random = prng(1000 + i);
      const winners: (Move & { seat: Seat })[] = [];
      for (let n = 0; n < MOVES && onA[0].gameover === undefined; n++) {
        const who = decider(onA[0]) as Seat;
        const viaA = onA[Number(who)] as GameClient;
        const viaB = onB[Number(who)] as GameClient;
        const stateID = viaA.state?.stateID ?? 0;
        expect(viaB.state?.stateID).toBe(stateID);
        const moves = [pickMove(viaA, random), pickMove(viaB, random)] as const;
        const acks = await Promise.all([viaA.move(moves[0]), viaB.move(moves[1])]);
        const won = acks.findIndex((ack) => ack.ok);
        expect(acks.filter((ack) => ack.ok)).toHaveLength(1);
        const lost = acks[1 - won];
        if (lost && !lost.ok) expect(lost.error.code).toBe('STALE_STATE');
        winners.push({ ...(moves[won] as Move), seat: who });
        await reached(everyone, stateID + 1);
      }
      const stored = await expectStored(matchID, everyone);
      expect(stored.map(({ seat, move, args }) => ({ seat, move, args }))).toEqual(
        JSON.parse(JSON.stringify(winners.map(({ seat, move, args }) => ({ seat, move, args })))),
      );
    };
    await Promise.all(Array.from({ length: MATCHES }, (_, i) => race(i)));
  }, 180_000);

  it('a match resigned through the other instance takes no more moves here, though this instance remembers its last state', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const { created, joined } = await createAndJoin(a.url, { clockMinutes: 10 });
    const { matchID } = created;
    const credentials = { '0': created.credentials, '1': joined.credentials };
    const players: Record<Seat, GameClient> = {
      '0': await seat(a.url, matchID, '0', credentials['0']),
      '1': await seat(a.url, matchID, '1', credentials['1']),
    };
    const random = prng(57);
    for (let n = 0; n < 3; n++) {
      const mover = players[decider(players['0']) as Seat];
      const stateID = mover.state?.stateID ?? 0;
      expect(await mover.move(pickMove(mover, random))).toEqual({ ok: true });
      await reached([players['0'], players['1']], stateID + 1);
    }
    const who = decider(players['0']) as Seat;
    const move = pickMove(players[who], random);
    const resigner: Seat = who === '0' ? '1' : '0';
    const left = await request<MatchInfo>(`${b.url}/api/matches/${matchID}/leave`, 'POST', {
      seat: resigner,
      credentials: credentials[resigner],
    });
    expect(left.body).toMatchObject({ status: 'finished', result: { reason: 'resigned' } });

    expect((await players[who].move(move)).ok).toBe(false);
    expect(await store.matches.readMoves(matchID)).toHaveLength(3);
    const after = await store.matches.getMatch(matchID);
    expect(after).toMatchObject({ status: 'finished', result: { reason: 'resigned' } });
    expect(after?.clock?.running).toBeNull();
  }, 60_000);

  it('an instance killed mid-move: its players carry on through the other, nothing lost', async () => {
    const [a, b] = await Promise.all([instance(), instance()]);
    const { created, joined } = await createAndJoin(b.url);
    const { matchID } = created;
    const credentials = { '0': created.credentials, '1': joined.credentials };
    let players: Record<Seat, GameClient> = {
      '0': await seat(a.url, matchID, '0', credentials['0']),
      '1': await seat(a.url, matchID, '1', credentials['1']),
    };
    const spectator = await seat(b.url, matchID, null);
    const random = prng(31);
    const acked = new Map<number, Move & { seat: Seat }>();
    const step = async (): Promise<void> => {
      const who = decider(players['0']) as Seat;
      const mover = players[who];
      const stateID = mover.state?.stateID ?? 0;
      const move = pickMove(mover, random);
      const ack = await mover.move(move);
      expect(ack).toEqual({ ok: true });
      acked.set(stateID + 1, { ...move, seat: who });
      await reached([spectator, players['0'], players['1']], stateID + 1);
    };
    for (let n = 0; n < 20; n++) await step();

    // A move is on its way to A when A dies; whether A stored it, only the store can say.
    const who = decider(players['0']) as Seat;
    void players[who].move(pickMove(players[who], random)).catch(() => undefined);
    a.child.kill('SIGKILL');
    expect(await exited(a.child)).toEqual({ code: null, signal: 'SIGKILL' });

    players = {
      '0': await seat(b.url, matchID, '0', credentials['0']),
      '1': await seat(b.url, matchID, '1', credentials['1']),
    };
    const resumed = players['0'].state?.stateID ?? 0;
    expect(resumed === 20 || resumed === 21).toBe(true);
    // A state A stored and died before announcing reaches the spectator as a sync.
    await reached([spectator], resumed);
    const syncs = spectator.syncs;
    expect(syncs).toBeLessThanOrEqual(resumed === 21 ? 2 : 1);
    while (players['0'].gameover === undefined) await step();

    const stored = await expectStored(matchID, [spectator, players['0'], players['1']]);
    for (const [stateID, move] of acked) {
      expect(stored[stateID - 1]).toMatchObject({
        seat: move.seat,
        move: move.move,
        args: JSON.parse(JSON.stringify(move.args)),
      });
    }
    // The spectator on B never lost the thread: from then on every state came as an update.
    expect(spectator.syncs).toBe(syncs);
    expect(spectator.gameover).toEqual(players['0'].gameover);
  }, 180_000);
});

describe('a state stored and never announced', () => {
  const logger = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
  const namespace = `iron-curtain-test:${schema}`;

  /** An instance in this process; `announces: false` stores its moves and never publishes them. */
  async function server(announces: boolean): Promise<TestServer> {
    const redis = await openRedisFanout(REDIS_URL, namespace, logger);
    const fanout: Fanout = announces
      ? redis
      : { ...redis, publish: (m) => (m.kind === 'update' ? undefined : redis.publish(m)) };
    const started = await startServer({
      stores: await openPostgresStores(POSTGRES_URL, schema),
      fanout,
    });
    inProcess.push(started);
    return started;
  }

  it('reaches the other instance’s sockets as a sync when a seat syncs there, and moves go on as updates', async () => {
    const [a, b] = await Promise.all([server(false), server(true)]);
    const { created, joined } = await createAndJoin(b.url);
    const { matchID } = created;
    const credentials = { '0': created.credentials, '1': joined.credentials };
    const onA = {
      '0': await seat(a.url, matchID, '0', credentials['0']),
      '1': await seat(a.url, matchID, '1', credentials['1']),
    };
    const spectator = await seat(b.url, matchID, null);
    const random = prng(7);
    const who = decider(onA['0']) as Seat;
    expect(await onA[who].move(pickMove(onA[who], random))).toEqual({ ok: true });
    expect((await store.matches.loadState(matchID))?._stateID).toBe(1);
    // A stored state 1 and told nobody: the spectator on B still holds state 0.
    expect(spectator.state?.stateID).toBe(0);

    const onB = {
      '0': await seat(b.url, matchID, '0', credentials['0']),
      '1': await seat(b.url, matchID, '1', credentials['1']),
    };
    await reached([spectator], 1);
    expect(spectator.syncs).toBe(2);
    for (const c of Object.values(onA)) c.close();

    const next = decider(onB['0']) as Seat;
    expect(await onB[next].move(pickMove(onB[next], random))).toEqual({ ok: true });
    await reached([spectator, onB['0'], onB['1']], 2);
    expect(spectator.syncs).toBe(2);
    await expectStored(matchID, [spectator, onB['0'], onB['1']]);
  }, 60_000);
});
