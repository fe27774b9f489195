import fs from 'node:fs';
import type { Seat } from '@iron-curtain/game';
import type {
  CreateBotMatchResponse,
  CreateMatchResponse,
  MatchInfo,
} from '@iron-curtain/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { BotCredentials } from '../src/bots/credentials.ts';
import type { MatchRecord } from '../src/storage/index.ts';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import {
  createAndJoin,
  type GameClient,
  pickMove,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
  tempDir,
} from './support.ts';

const BOT_ENV = { BOT_MOVE_DELAY_MS: '0' };
let servers: TestServer[] = [];
const clients: GameClient[] = [];

async function server(env: Record<string, string> = {}, stores?: TestServer['stores']) {
  const started = await startServer({ env: { ...BOT_ENV, ...env }, ...(stores ? { stores } : {}) });
  servers.push(started);
  return started;
}

async function client(url: string, matchID: string, seat: Seat | null, credentials?: string) {
  const c = await seatClient(url, matchID, seat, credentials);
  clients.push(c);
  return c;
}

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0).reverse()) await s.close();
  servers = [];
});

/** The human seat plays random legal moves until the game ends; the computer answers. */
async function playAgainstComputer(human: GameClient, seed: number): Promise<number> {
  const random = prng(seed);
  let humanMoves = 0;
  while (human.gameover === undefined) {
    await human.until(
      () => human.gameover !== undefined || human.view.decision?.seat === human.playerID,
      'the human to decide',
      30_000,
    );
    if (human.gameover !== undefined) break;
    const ack = await human.move(pickMove(human, random));
    expect(ack).toEqual({ ok: true });
    humanMoves += 1;
  }
  return humanMoves;
}

describe('a computer opponent', () => {
  it('plays a whole match against a person through the socket API, watched by a spectator', async () => {
    const { url } = await server();
    const created = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'US',
      opponent: 'medium',
    });
    expect(created.status).toBe(201);
    const { matchID, credentials } = created.body;
    const info = await request<MatchInfo>(`${url}/api/matches/${matchID}`, 'GET');
    expect(info.body).toMatchObject({
      status: 'playing',
      players: [{ name: 'Ann' }, { name: 'Computer (medium)' }],
    });

    const spectator = await client(url, matchID, null);
    const human = await client(url, matchID, '0', credentials);
    const humanMoves = await playAgainstComputer(human, 7);

    await spectator.until(() => spectator.gameover !== undefined, 'the spectator to see the end');
    // Every stored state is one move: what the person did not play, the computer did. The deal
    // is the server's secret, and some deals end after a handful of moves, so both seats having
    // moved is what holds for every deal.
    const computerMoves = (human.state?.stateID ?? 0) - humanMoves;
    expect(humanMoves).toBeGreaterThan(0);
    expect(computerMoves).toBeGreaterThan(0);
    expect(spectator.state?.stateID).toBe(human.state?.stateID);
    const after = await request<MatchInfo>(`${url}/api/matches/${matchID}`, 'GET');
    expect(after.body.status).toBe('finished');
  }, 120_000);

  it('hard: decides within the second it is given, through the same path', async () => {
    const { url } = await server();
    const created = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'US',
      opponent: 'hard',
    });
    const human = await client(url, created.body.matchID, '0', created.body.credentials);
    // The USSR (the computer) chooses who goes first: its move arrives without any help.
    await human.until(() => (human.state?.stateID ?? 0) >= 1, 'the computer to choose', 15_000);
    expect(human.log[0]).toMatchObject({ type: 'firstPlayer', chooser: 'USSR' });
  }, 30_000);

  it('two computers play a demo match to the end for anyone to watch', async () => {
    const { url } = await server();
    const created = await request<CreateBotMatchResponse>(`${url}/api/bot-matches`, 'POST', {
      levels: { US: 'easy', USSR: 'medium' },
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toMatch(/credentials/);
    const spectator = await client(url, created.body.matchID, null);
    await spectator.until(() => spectator.gameover !== undefined, 'the demo to end', 90_000);
    const listed = await request<{ matches: MatchInfo[] }>(`${url}/api/matches?limit=10`, 'GET');
    expect(listed.body.matches.map((m) => m.matchID)).toContain(created.body.matchID);
    // Each placement step was sent as one confirmed draft, as a person's client sends it.
    const record = await request<{ moves: { move: string }[] }>(
      `${url}/api/matches/${created.body.matchID}/record`,
      'GET',
    );
    const sent = record.body.moves.map((m) => m.move);
    expect(sent).toContain('placeCubes');
    expect(sent).not.toContain('placeCube');
  }, 120_000);

  it('resumes after a restart as soon as someone syncs with its match', async () => {
    const first = await server();
    const created = await request<CreateMatchResponse>(`${first.url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'USSR',
      opponent: 'easy',
    });
    const { matchID, credentials } = created.body;
    // The human (USSR) chooses; then the computer (US) is to play its first card.
    const human = await client(first.url, matchID, '0', credentials);
    expect(await human.move({ move: 'chooseFirstPlayer', args: ['US'] })).toEqual({ ok: true });
    await human.until(() => (human.state?.stateID ?? 0) >= 2, 'the computer to play');
    human.close();

    // Stop the server but keep its data directory, then serve the same store again.
    servers = servers.filter((s) => s !== first);
    await first.app.close();
    const dataDir = first.config.DATA_DIR;
    const reopened = await server({}, openSqliteStores(dataDir));
    const back = await client(reopened.url, matchID, '0', credentials);
    const played = await playAgainstComputer(back, 11);
    expect(played).toBeGreaterThan(3);
    expect(back.gameover).toBeDefined();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 120_000);

  it('refuses a new computer match once every computer player is busy', async () => {
    const { url } = await server({ BOT_MAX_MATCHES: '1', BOT_MOVE_DELAY_MS: '60000' });
    const body = { name: 'Ann', side: 'US', opponent: 'easy' };
    expect((await request(`${url}/api/matches`, 'POST', body)).status).toBe(201);
    const busy = await request(`${url}/api/matches`, 'POST', body);
    expect(busy.status).toBe(503);
    expect(busy.body).toMatchObject({ error: { code: 'BOTS_BUSY' } });
    const demo = await request(`${url}/api/bot-matches`, 'POST', {
      levels: { US: 'easy', USSR: 'easy' },
    });
    expect(demo.status).toBe(503);
    // People can still play each other.
    expect((await request(`${url}/api/matches`, 'POST', { name: 'Ann' })).status).toBe(201);
  });

  it('gives the last computer player to one of two requests sent at once', async () => {
    const { url } = await server({ BOT_MAX_MATCHES: '1', BOT_MOVE_DELAY_MS: '60000' });
    const body = { name: 'Ann', side: 'US', opponent: 'easy' };
    const answers = await Promise.all([
      request(`${url}/api/matches`, 'POST', body),
      request(`${url}/api/bot-matches`, 'POST', { levels: { US: 'easy', USSR: 'easy' } }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 503]);
  });

  it('answers a created computer match even when its computer player cannot start, and starts it at the next sync', async () => {
    const dir = tempDir();
    const stores = openSqliteStores(dir);
    const getMatch = stores.matches.getMatch.bind(stores.matches);
    let storeAnswers = false;
    stores.matches.getMatch = (matchID) =>
      storeAnswers ? getMatch(matchID) : Promise.reject(new Error('the store is away'));
    const { url } = await server({}, stores);
    const created = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'USSR',
      opponent: 'easy',
    });
    expect(created.status).toBe(201);

    storeAnswers = true;
    const human = await client(url, created.body.matchID, '0', created.body.credentials);
    expect(await playAgainstComputer(human, 5)).toBeGreaterThan(3);
    expect(human.gameover).toBeDefined();
    fs.rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('a seat is a computer’s only when its credentials are ones only the server can make', async () => {
    const { url, stores } = await server();
    // A person whose seat bears a computer's name is still a person: the lobby refuses a guest
    // that name now, but a seat may have taken it before.
    const { created } = await createAndJoin(url);
    const credentials = new BotCredentials(stores.secrets);
    const match = await stores.matches.getMatch(created.matchID);
    if (!match) throw new Error('no match');
    const [first, second] = match.players;
    const named: MatchRecord = {
      ...match,
      players: [{ ...first, name: 'Computer (hard)' }, second],
    };
    expect(await credentials.seatsOf(named)).toEqual([]);

    const vsBot = await request<CreateMatchResponse>(`${url}/api/matches`, 'POST', {
      name: 'Ann',
      opponent: 'hard',
    });
    const withBot = await stores.matches.getMatch(vsBot.body.matchID);
    if (!withBot) throw new Error('no match');
    const computer = await credentials.of(withBot.matchID, '1', 'hard');
    expect(await credentials.seatsOf(withBot)).toEqual([
      { seat: '1', level: 'hard', credentials: computer },
    ]);
    // The lobby answer never carries the computer's credentials.
    expect(vsBot.text).not.toContain(computer);
  });
});
