import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BUILT_IN_DECKS,
  type Deck,
  type LogEntry,
  legalMoves,
  type Move,
  type RulesContext,
  type Seat,
  type State,
} from '@iron-curtain/game';
import type {
  Ack,
  ChatMessage,
  CreateMatchResponse,
  MatchInfo,
  Presence,
  RefusedMessage,
  SeatGrant,
  StateFrame,
  SyncMessage,
  UpdateMessage,
} from '@iron-curtain/protocol';
import { applyUpdate } from '@iron-curtain/protocol';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect } from 'vitest';
import { type App, createApp } from '../src/app.ts';
import type { Fanout } from '../src/match/fanout.ts';
import { type Config, loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import type { TimeSource } from '../src/ops/time.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import type { Stores } from '../src/storage/stores.ts';
import { Arrivals } from './arrivals.ts';

export const POSTGRES_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'ic-server-'));
}

/** A Postgres schema of its own for one test file, so runs never collide. */
export function uniqueSchema(): string {
  return `ic_test_${randomBytes(6).toString('hex')}`;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Version 1 of the default deck: what every match stored before version 2 was dealt from. */
export const DECK_VERSION_1 = BUILT_IN_DECKS.find((d) => d.version === '1') as Deck;

// A deck as a match record names it: the server's own function, not a copy.
export { deckInfoOf } from '../src/decks/built-in-decks.ts';

export type StoreKind = 'sqlite' | 'postgres';

export async function openTestStores(kind: StoreKind, where: string): Promise<Stores> {
  return kind === 'sqlite' ? openSqliteStores(where) : openPostgresStores(POSTGRES_URL, where);
}

export interface TestServer {
  url: string;
  /** The operator's metrics listener: http://127.0.0.1:<METRICS_PORT>/metrics. */
  metricsUrl: string;
  app: App;
  stores: Stores;
  config: Config;
  close(): Promise<void>;
}

/** The whole server in this process, on an ephemeral port of 127.0.0.1. */
export async function startServer(
  options: {
    stores?: Stores;
    env?: Record<string, string>;
    time?: TimeSource;
    fanout?: Fanout;
  } = {},
): Promise<TestServer> {
  const dir = tempDir();
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_PER_SECOND: '1000',
    RATE_LIMIT_BURST: '1000',
    LOBBY_WRITES_PER_MINUTE: '100000',
    ACCOUNT_ATTEMPTS_PER_ADDRESS_PER_MINUTE: '100000',
    CHAT_LINES_PER_ADDRESS_PER_MINUTE: '100000',
    // Every client of a test comes from 127.0.0.1: lift the per-address socket limits too.
    SOCKETS_PER_ADDRESS: '100000',
    SOCKET_CONNECTS_PER_ADDRESS_PER_SECOND: '100000',
    SOCKET_CONNECTS_AT_ONCE: '100000',
    METRICS_PORT: '0',
    ...options.env,
  });
  const stores = options.stores ?? openSqliteStores(dir, { snapshots: true });
  const app = createApp(config, stores, createLogger(config), options.fanout, options.time);
  const port = await app.listen();
  return {
    url: `http://127.0.0.1:${port}`,
    metricsUrl: `http://127.0.0.1:${app.metricsPort}/metrics`,
    app,
    stores,
    config,
    async close() {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A server on a fresh store of `kind` for the tests of one describe block: started before
 * them, closed (and its Postgres schema dropped) after them. A getter, as it starts later.
 */
export function serverOnStore(kind: StoreKind): () => TestServer {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({ stores: await openTestStores(kind, where) });
  });
  afterAll(async () => {
    await server?.close();
    if (kind === 'postgres') await dropSchema(where);
  });
  return () => {
    if (!server) throw new Error('the server has not started');
    return server;
  };
}

export interface HttpAnswer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export async function request<T = unknown>(
  url: string,
  method: 'GET' | 'POST',
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<HttpAnswer<T>> {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, body: parsed as T, text };
}

/** Creates a match and seats a second player through the lobby API. */
export async function createAndJoin(
  url: string,
  create: Record<string, unknown> = {},
): Promise<{ created: CreateMatchResponse; joined: SeatGrant; invite: string; texts: string[] }> {
  const created = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
    name: 'Ann',
    ...create,
  });
  if (created.status !== 201) throw new Error(`create failed: ${created.text}`);
  const invite = decodeURIComponent(created.body.links.invite.split('#')[1] ?? '');
  const joined = await request<SeatGrant>(
    `${url}/api/matches/${created.body.matchID}/join`,
    'POST',
    { name: 'Boris', invite },
  );
  if (joined.status !== 200) throw new Error(`join failed: ${joined.text}`);
  return { created: created.body, joined: joined.body, invite, texts: [created.text, joined.text] };
}

/**
 * A socket.io client of the game service that keeps every raw frame it receives,
 * the latest state it was sent, the log, presence and refusals.
 */
export class GameClient {
  readonly socket: Socket;
  /** Every packet as it arrived on the wire, before socket.io decoded it. */
  readonly wire: string[] = [];
  state: StateFrame | undefined;
  /** The match's deck and variants, from the last sync. */
  rules: RulesContext | undefined;
  log: LogEntry[] = [];
  presence: Presence | undefined;
  readonly refusals: RefusedMessage[] = [];
  /** Updates that did not apply to the state this client held (the server must send none). */
  readonly misfits: UpdateMessage[] = [];
  syncs = 0;
  /** Every 'chat' message, in order (histories and lines). */
  readonly chat: ChatMessage[] = [];
  playerID: Seat | null = null;
  private readonly arrivals = new Arrivals();

  constructor(url: string, options: { headers?: Record<string, string> } = {}) {
    this.socket = io(`${url}/game`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      extraHeaders: options.headers,
    });
    this.socket.io.on('open', () => {
      this.socket.io.engine.on('packet', (packet: { type: string; data?: unknown }) => {
        this.wire.push(`${packet.type}:${typeof packet.data === 'string' ? packet.data : ''}`);
      });
    });
    this.socket.on('sync', (m: SyncMessage) => {
      this.syncs += 1;
      this.playerID = m.playerID;
      this.rules = m.rules;
      this.state = m.state;
      this.log = [...m.log];
      this.presence = m.presence;
      this.arrivals.notify();
    });
    this.socket.on('update', (m: UpdateMessage) => {
      const next = this.state && applyUpdate(this.state, m);
      if (next) this.state = next;
      else this.misfits.push(m);
      this.log.push(...m.entries);
      this.arrivals.notify();
    });
    this.socket.on('presence', (p: Presence) => {
      this.presence = p;
      this.arrivals.notify();
    });
    this.socket.on('chat', (m: ChatMessage) => {
      this.chat.push(m);
      this.arrivals.notify();
    });
    this.socket.on('refused', (r: RefusedMessage) => {
      this.refusals.push(r);
      this.arrivals.notify();
    });
  }

  /** Resolves when `predicate` holds, checked after every message; rejects after `ms`. */
  until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
    return this.arrivals.until(predicate, what, ms);
  }

  async connected(): Promise<void> {
    if (this.socket.connected) return;
    await new Promise<void>((resolve, reject) => {
      this.socket.once('connect', () => resolve());
      this.socket.once('connect_error', reject);
    });
  }

  emit(event: string, ...args: unknown[]): Promise<Ack> {
    return this.socket.timeout(10_000).emitWithAck(event, ...args) as Promise<Ack>;
  }

  async sync(matchID: string, playerID: Seat | null, credentials?: string): Promise<Ack> {
    await this.connected();
    const before = this.syncs;
    const ack = await this.emit('sync', { matchID, playerID, credentials });
    if (ack.ok) await this.until(() => this.syncs > before, 'sync');
    return ack;
  }

  /** Sends a move for this client's seat on the state it last saw. */
  move(move: Move, overrides: { stateID?: number; playerID?: string } = {}): Promise<Ack> {
    if (!this.state) throw new Error('not synced');
    return this.emit('update', {
      matchID: this.matchID,
      stateID: overrides.stateID ?? this.state.stateID,
      action: {
        type: 'MAKE_MOVE',
        payload: {
          type: move.move,
          args: move.args,
          playerID: overrides.playerID ?? this.playerID,
        },
      },
    });
  }

  matchID = '';

  get view(): State {
    if (!this.state) throw new Error('not synced');
    return this.state.G;
  }

  /** The game's result once it ended by the rules (a track win or final scoring). */
  get gameover(): State['result'] | undefined {
    return this.state?.G.result ?? undefined;
  }

  close(): void {
    this.socket.close();
  }
}

export async function seatClient(
  url: string,
  matchID: string,
  playerID: Seat | null,
  credentials?: string,
): Promise<GameClient> {
  const client = new GameClient(url);
  client.matchID = matchID;
  const ack = await client.sync(matchID, playerID, credentials);
  if (!ack.ok) throw new Error(`sync refused: ${ack.error.message}`);
  return client;
}

/** A small seeded PRNG (mulberry32) so a failing match can be played again. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A legal move for `client`'s seat, chosen from what the client itself was sent. */
export function pickMove(client: GameClient, random: () => number): Move {
  if (!client.rules) throw new Error('not synced');
  const moves = legalMoves(client.rules, client.view, client.playerID);
  if (moves.length === 0) throw new Error(`seat ${client.playerID} has no legal move`);
  return moves[Math.floor(random() * moves.length)] as Move;
}

/** The seat whose decision it is, as the clients were told. */
export function decider(client: GameClient): Seat | undefined {
  return client.view.decision?.seat;
}

/** The match's public info, as the lobby answers it. */
export async function matchInfo(server: { url: string }, matchID: string): Promise<MatchInfo> {
  return (await request<MatchInfo>(`${server.url}/api/matches/${matchID}`, 'GET')).body;
}

/** Waits (on the real clock) until the match's clock runs (its room starts it after the join): the seat deciding first. */
export async function runningSeat(server: TestServer, matchID: string): Promise<Seat> {
  await expect
    .poll(async () => (await matchInfo(server, matchID)).clock?.running ?? null)
    .not.toBe(null);
  return (await matchInfo(server, matchID)).clock?.running as Seat;
}

/** `mover` plays until the decision passes to the other seat (its turn is over). */
export async function playTurn(mover: GameClient, random: () => number): Promise<void> {
  const seat = mover.playerID as Seat;
  while (decider(mover) === seat) {
    const target = (mover.state?.stateID ?? 0) + 1;
    const ack = await mover.move(pickMove(mover, random));
    if (!ack.ok) throw new Error(`move refused: ${ack.error.message}`);
    await mover.until(() => (mover.state?.stateID ?? -1) >= target, `state ${target}`);
  }
}

/** Plays until the game ends (or `maxMoves`), waiting until every watcher has seen each new state. */
export async function playOut(
  seats: Record<Seat, GameClient>,
  watchers: GameClient[],
  random: () => number,
  maxMoves = 1000,
): Promise<number> {
  let moves = 0;
  while (seats['0'].gameover === undefined && moves < maxMoves) {
    const seat = decider(seats['0']);
    if (seat === undefined) throw new Error('nobody decides, yet the game is not over');
    const player = seats[seat];
    const target = (player.state?.stateID ?? 0) + 1;
    const ack = await player.move(pickMove(player, random));
    if (!ack.ok) throw new Error(`move refused: ${ack.error.code} ${ack.error.message}`);
    moves += 1;
    const misfit = [...watchers, seats['0'], seats['1']].find((c) => c.misfits.length > 0);
    if (misfit) throw new Error(`an update did not fit: ${JSON.stringify(misfit.misfits[0])}`);
    await Promise.all(
      [...watchers, seats['0'], seats['1']].map((c) =>
        c.until(() => (c.state?.stateID ?? -1) >= target, `state ${target}`),
      ),
    );
  }
  return moves;
}
