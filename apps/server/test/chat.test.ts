import type { Seat } from '@iron-curtain/game';
import type { Ack, ChatLine, ChatSettings, RefusedMessage } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRedisFanout } from '../src/match/fanout.ts';
import { loadConfig } from '../src/ops/config.ts';
import { createLogger } from '../src/ops/logger.ts';
import { openPostgresStores } from '../src/storage/postgres.ts';
import {
  createAndJoin,
  dropSchema,
  type GameClient,
  POSTGRES_URL,
  request,
  seatClient,
  startServer,
  type TestServer,
  uniqueSchema,
} from './support.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const silent = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));

/** What a client's chat shows: the last history, then the lines sent after it. */
function shown(client: GameClient): ChatLine[] {
  let lines: ChatLine[] = [];
  for (const message of client.chat) {
    if (message.kind === 'history') lines = [...message.lines];
    else if (!lines.some((l) => l.id === message.line.id)) lines.push(message.line);
  }
  return lines;
}
const words = (client: GameClient) => shown(client).map((l) => l.phrase ?? l.text);
const settingsOf = (client: GameClient): ChatSettings | undefined =>
  client.chat.findLast((m) => m.kind === 'history')?.settings;
const histories = (client: GameClient) => client.chat.filter((m) => m.kind === 'history').length;

const say = (client: GameClient, body: Record<string, unknown>) =>
  client.emit('chat', { matchID: client.matchID, ...body });
const sayText = (client: GameClient, text: string) => say(client, { kind: 'text', text });
const sayPhrase = (client: GameClient, phrase: string) => say(client, { kind: 'phrase', phrase });
const settle = (client: GameClient, body: Record<string, unknown>) =>
  client.emit('chatSettings', { matchID: client.matchID, ...body });

async function saidAndSeen(client: GameClient, answer: Promise<Ack>, what: string) {
  expect(await answer).toEqual({ ok: true });
  await client.until(() => words(client).includes(what), `own line "${what}"`);
}

/** The refusal came in the ack only: no 'refused' event, no re-sync, nothing stored. */
async function expectRefused(
  server: TestServer,
  client: GameClient,
  answer: Promise<Ack>,
  code: RefusedMessage['code'],
) {
  const before = await server.stores.chat.readChat(client.matchID);
  const syncs = client.syncs;
  const refusals = client.refusals.length;
  const ack = await answer;
  expect(ack).toMatchObject({ ok: false, error: { code } });
  expect(await server.stores.chat.readChat(client.matchID)).toEqual(before);
  expect(client.syncs).toBe(syncs);
  expect(client.refusals.length).toBe(refusals);
}

describe('match chat through the socket API', () => {
  let server: TestServer;
  let matchID: string;
  let credentials: Record<Seat, string>;
  let seats: Record<Seat, GameClient>;
  let spectators: [GameClient, GameClient];
  const opened: GameClient[] = [];
  const open = async (seat: Seat | null) => {
    const client = await seatClient(
      server.url,
      matchID,
      seat,
      seat === null ? undefined : credentials[seat],
    );
    opened.push(client);
    return client;
  };

  beforeAll(async () => {
    server = await startServer();
    const { created, joined } = await createAndJoin(server.url);
    matchID = created.matchID;
    credentials = { '0': created.credentials, '1': joined.credentials };
    seats = { '0': await open('0'), '1': await open('1') };
    spectators = [await open(null), await open(null)];
  });
  afterAll(async () => {
    for (const c of opened) c.close();
    await server.close();
  });

  it('sends every socket its history and settings right after its sync', () => {
    for (const c of [seats['0'], seats['1'], ...spectators]) {
      expect(c.chat[0]).toMatchObject({ kind: 'history', matchID, lines: [] });
    }
    expect(settingsOf(seats['0'])).toEqual({
      off: false,
      freeText: true,
      mutingOpponent: false,
      canSwitch: true,
    });
    expect(settingsOf(seats['1'])?.canSwitch).toBe(false);
    expect(settingsOf(spectators[0])?.canSwitch).toBe(false);
  });

  it('players talk to each other (phrases by id, free text trimmed); spectators never hear them while the match is on', async () => {
    await saidAndSeen(seats['0'], sayPhrase(seats['0'], 'goodLuck'), 'goodLuck');
    await seats['1'].until(() => words(seats['1']).includes('goodLuck'), 'the phrase');
    await saidAndSeen(seats['1'], sayText(seats['1'], '  players-secret-1  '), 'players-secret-1');
    await seats['0'].until(() => words(seats['0']).includes('players-secret-1'), 'the text');
    expect(shown(seats['0'])).toEqual([
      expect.objectContaining({ room: 'players', seat: '0', phrase: 'goodLuck' }),
      expect.objectContaining({ room: 'players', seat: '1', text: 'players-secret-1' }),
    ]);

    // Spectators talk in their room; a line they see was sent after the players' lines,
    // so had those been sent to them, they would have arrived first.
    await saidAndSeen(
      spectators[0],
      sayText(spectators[0], 'spectators-aside'),
      'spectators-aside',
    );
    await spectators[1].until(() => words(spectators[1]).includes('spectators-aside'), 'aside');
    for (const s of spectators) {
      expect(words(s)).toEqual(['spectators-aside']);
      expect(s.wire.join('\n')).not.toContain('players-secret-1');
    }
    expect(shown(spectators[1])[0]).toMatchObject({ room: 'spectators', seat: null });
    // And the players never hear the spectators: one more players' line arrives after it.
    await saidAndSeen(seats['0'], sayPhrase(seats['0'], 'thanks'), 'thanks');
    await seats['1'].until(() => words(seats['1']).includes('thanks'), 'thanks');
    for (const s of [seats['0'], seats['1']]) {
      expect(words(s)).toEqual(['goodLuck', 'players-secret-1', 'thanks']);
      expect(s.wire.join('\n')).not.toContain('spectators-aside');
    }
  });

  it('chat frames carry lines and settings only, nothing of the game', () => {
    for (const message of seats['1'].chat) {
      const keys =
        message.kind === 'history'
          ? ['kind', 'lines', 'matchID', 'settings']
          : ['kind', 'line', 'matchID'];
      expect(Object.keys(message).sort()).toEqual(keys);
    }
  });

  it('refuses bad input with its own code, in the ack, storing nothing, and the socket goes on', async () => {
    const c = seats['1'];
    await expectRefused(server, c, sayText(c, 'x'.repeat(201)), 'CHAT_TOO_LONG');
    await expectRefused(server, c, sayText(c, 'ring\u0007ring'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, 'two\nlines'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, 'abc\u202Efed'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, '<img src=x onerror=alert(1)>'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, 'a &lt; b'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, '   '), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, '\u200B\u200D\u2060 \u3164'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, 'one\u2028two'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, `Z${'\u0336'.repeat(30)}`), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayText(c, 'a\u{E0041}\u{E0042}'), 'CHAT_BAD_TEXT');
    await expectRefused(server, c, sayPhrase(c, 'insult'), 'BAD_MESSAGE');
    await expectRefused(server, c, say(c, { kind: 'text', text: 'x', extra: 1 }), 'BAD_MESSAGE');
    await expectRefused(
      server,
      c,
      c.emit('chat', { matchID: 'B'.repeat(16), kind: 'phrase', phrase: 'oops' }),
      'NOT_SYNCED',
    );
    // 200 characters (code points, an emoji counts once) is fine; so is a lone "<" or "&".
    await saidAndSeen(c, sayText(c, `${'é'.repeat(198)}🙂!`), `${'é'.repeat(198)}🙂!`);
    await saidAndSeen(c, sayText(c, '2 < 3 & 4 > 1'), '2 < 3 & 4 > 1');
  });

  it('refuses a socket that chats too fast (CHAT_TOO_FAST), the others still talk', async () => {
    const device = await open('0');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => sayText(device, `burst ${i}`)),
    );
    const refused = answers.filter((a) => !a.ok);
    expect(refused.length).toBe(3);
    for (const a of refused) expect(a).toMatchObject({ error: { code: 'CHAT_TOO_FAST' } });
    await saidAndSeen(seats['0'], sayPhrase(seats['0'], 'oops'), 'oops');
  });

  it('a reload shows the history of its room, in order', async () => {
    const reloaded = await open('1');
    expect(words(reloaded)).toEqual(words(seats['1']));
    expect(shown(reloaded).map((l) => l.id)).toEqual(
      [...shown(reloaded).map((l) => l.id)].sort((a, b) => a - b),
    );
    const watcher = await open(null);
    expect(words(watcher)).toEqual(['spectators-aside']);
  });

  it("mute: a seat that muted its opponent is sent none of the opponent's lines, on any device, until it unmutes", async () => {
    const before = histories(seats['1']);
    expect(await settle(seats['1'], { muteOpponent: true })).toEqual({ ok: true });
    await seats['1'].until(() => histories(seats['1']) > before, 'history after muting');
    expect(settingsOf(seats['1'])?.mutingOpponent).toBe(true);
    expect(shown(seats['1']).every((l) => l.seat !== '0')).toBe(true);

    await saidAndSeen(seats['0'], sayText(seats['0'], 'unheard-by-1'), 'unheard-by-1');
    await saidAndSeen(seats['1'], sayPhrase(seats['1'], 'wellPlayed'), 'wellPlayed');
    await seats['0'].until(
      () => words(seats['0']).includes('wellPlayed'),
      'the muter still speaks',
    );
    expect(seats['1'].wire.join('\n')).not.toContain('unheard-by-1');
    const otherDevice = await open('1');
    expect(words(otherDevice)).not.toContain('unheard-by-1');
    expect(settingsOf(seats['0'])?.mutingOpponent).toBe(false);

    expect(await settle(spectators[0], { muteOpponent: true })).toMatchObject({
      ok: false,
      error: { code: 'UNAUTHORIZED' },
    });
    expect(await settle(seats['1'], { muteOpponent: false })).toEqual({ ok: true });
    await seats['1'].until(() => words(seats['1']).includes('unheard-by-1'), 'history again');
  });

  it('chat off: only the creator switches it; while off nobody says anything, in either room', async () => {
    await expectRefused(server, seats['1'], settle(seats['1'], { off: true }), 'UNAUTHORIZED');
    await expectRefused(
      server,
      spectators[0],
      settle(spectators[0], { off: true }),
      'UNAUTHORIZED',
    );
    expect(await settle(seats['0'], { off: true })).toEqual({ ok: true });
    for (const c of [seats['1'], spectators[1]]) {
      await c.until(() => settingsOf(c)?.off === true, 'the switch');
    }
    await expectRefused(server, seats['1'], sayPhrase(seats['1'], 'oops'), 'CHAT_OFF');
    await expectRefused(server, spectators[0], sayText(spectators[0], 'hello'), 'CHAT_OFF');
    await expectRefused(server, seats['0'], sayPhrase(seats['0'], 'oops'), 'CHAT_OFF');
    expect(await settle(seats['0'], { off: false })).toEqual({ ok: true });
    await seats['1'].until(() => settingsOf(seats['1'])?.off === false, 'back on');
    await saidAndSeen(seats['1'], sayPhrase(seats['1'], 'goodGame'), 'goodGame');
  });

  it('once the match ended, players and spectators read both rooms', async () => {
    const left = await request(`${server.url}/api/matches/${matchID}/leave`, 'POST', {
      seat: '1',
      credentials: credentials['1'],
    });
    expect(left.status).toBe(200);
    await spectators[0].until(
      () => words(spectators[0]).includes('players-secret-1'),
      "players' room",
    );
    await seats['0'].until(
      () => words(seats['0']).includes('spectators-aside'),
      "spectators' room",
    );
    expect(shown(seats['0']).map((l) => l.room)).toContain('spectators');
    // Lines said after the end reach everyone.
    await saidAndSeen(spectators[1], sayText(spectators[1], 'after-the-end'), 'after-the-end');
    await seats['1'].until(() => words(seats['1']).includes('after-the-end'), 'a spectator, after');
    const late = await open(null);
    expect(words(late)).toEqual(expect.arrayContaining(['players-secret-1', 'spectators-aside']));
  });

  it('counts the accepted lines per room in /metrics', async () => {
    const text = await (await fetch(server.metricsUrl)).text();
    expect(text).toMatch(/ic_chat_lines_total\{room="players"\} [1-9]/);
    expect(text).toMatch(/ic_chat_lines_total\{room="spectators"\} [1-9]/);
  });
});

describe('a server with free text off', () => {
  let server: TestServer;
  const clients: GameClient[] = [];
  beforeAll(async () => {
    server = await startServer({ env: { CHAT_FREE_TEXT: 'false' } });
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await server.close();
  });

  it('refuses free text (CHAT_FREE_TEXT_OFF) and still takes quick phrases', async () => {
    const { created } = await createAndJoin(server.url);
    const seat = await seatClient(server.url, created.matchID, '0', created.credentials);
    clients.push(seat);
    expect(settingsOf(seat)?.freeText).toBe(false);
    await expectRefused(server, seat, sayText(seat, 'hello'), 'CHAT_FREE_TEXT_OFF');
    await saidAndSeen(seat, sayPhrase(seat, 'goodLuck'), 'goodLuck');
  });
});

describe('chat across two servers sharing Postgres and Redis', () => {
  const schema = uniqueSchema();
  const namespace = `iron-curtain-chat-test:${process.pid}:${Date.now()}`;
  const servers: TestServer[] = [];
  const clients: GameClient[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++) {
      const stores = await openPostgresStores(POSTGRES_URL, schema);
      const fanout = await openRedisFanout(REDIS_URL, namespace, silent);
      servers.push(await startServer({ stores, fanout }));
    }
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    for (const s of servers) await s.close();
    await dropSchema(schema);
  });

  it('a line said on one server reaches the readers on the other, and only them; so does the switch', async () => {
    const [a, b] = servers as [TestServer, TestServer];
    const { created, joined } = await createAndJoin(a.url);
    const { matchID } = created;
    const seat0 = await seatClient(a.url, matchID, '0', created.credentials);
    const seat1 = await seatClient(b.url, matchID, '1', joined.credentials);
    const watcherA = await seatClient(a.url, matchID, null);
    const watcherB = await seatClient(b.url, matchID, null);
    clients.push(seat0, seat1, watcherA, watcherB);

    await saidAndSeen(seat0, sayText(seat0, 'across-servers'), 'across-servers');
    await seat1.until(() => words(seat1).includes('across-servers'), 'the line on B');
    await saidAndSeen(watcherB, sayText(watcherB, 'watchers-on-b'), 'watchers-on-b');
    await watcherA.until(() => words(watcherA).includes('watchers-on-b'), 'the aside on A');
    expect(words(watcherA)).toEqual(['watchers-on-b']);
    expect(watcherB.wire.join('\n')).not.toContain('across-servers');

    expect(await settle(seat0, { off: true })).toEqual({ ok: true });
    await seat1.until(() => settingsOf(seat1)?.off === true, 'the switch on B');
    await expectRefused(b, seat1, sayPhrase(seat1, 'oops'), 'CHAT_OFF');
  });
});
