import type { Seat } from '@iron-curtain/game';
import { MAX_MESSAGE_BYTES, type RefusedMessage } from '@iron-curtain/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  createAndJoin,
  GameClient,
  pickMove,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

let server: TestServer;
let matchID: string;
let credentials: Record<Seat, string>;
let seats: Record<Seat, GameClient>;
let spectator: GameClient;

/** The seat whose decision it is, and the other one. */
const roles = () => {
  const decider = seats['0'].view.decision?.seat as Seat;
  return { decider: seats[decider], waiting: seats[decider === '0' ? '1' : '0'] };
};

let snapshot: unknown;
const stored = async () => server.stores.matches.loadState(matchID);

beforeAll(async () => {
  // The fuzz below sends over 1,000 messages a second per socket: the per-socket rate limit
  // (tested on its own in the flood tests) would refuse them unread, and disconnect the socket.
  server = await startServer({
    env: { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' },
  });
  const { created, joined } = await createAndJoin(server.url, {});
  matchID = created.matchID;
  credentials = { '0': created.credentials, '1': joined.credentials };
  seats = {
    '0': await seatClient(server.url, matchID, '0', credentials['0']),
    '1': await seatClient(server.url, matchID, '1', credentials['1']),
  };
  spectator = await seatClient(server.url, matchID, null);
  // Two moves in, so the match is under way.
  const random = prng(7);
  for (let i = 0; i < 2; i++) {
    const { decider } = roles();
    const before = decider.state?.stateID ?? 0;
    expect(await decider.move(pickMove(decider, random))).toEqual({ ok: true });
    await seats['0'].until(() => (seats['0'].state?.stateID ?? 0) > before, 'update');
    await seats['1'].until(() => (seats['1'].state?.stateID ?? 0) > before, 'update');
  }
});

afterAll(async () => {
  for (const c of [seats['0'], seats['1'], spectator]) c.close();
  await server.close();
});

beforeEach(async () => {
  snapshot = await stored();
});

/** The refusal arrived as the ack and as a 'refused' event, then a fresh sync; nothing changed. */
async function expectRefused(
  client: GameClient,
  answer: Promise<unknown>,
  code: RefusedMessage['code'],
  resync = true,
): Promise<RefusedMessage> {
  const syncs = client.syncs;
  const refusals = client.refusals.length;
  const ack = (await answer) as { ok: boolean; error: RefusedMessage };
  expect(ack.ok).toBe(false);
  expect(ack.error.code).toBe(code);
  expect(ack.error.message.length).toBeGreaterThan(0);
  await client.until(() => client.refusals.length > refusals, 'refused event');
  expect(client.refusals.at(-1)).toEqual(ack.error);
  if (resync) await client.until(() => client.syncs > syncs, 're-sync');
  expect(await stored()).toEqual(snapshot);
  return ack.error;
}

const update = (client: GameClient, action: unknown, stateID = client.state?.stateID) =>
  client.emit('update', { matchID, stateID, action });

describe('refused, state unchanged, process alive', () => {
  it.each(['UPDATE', 'SYNC', 'RESET', 'PATCH', 'PLUGIN', 'UNDO', 'REDO', 'STRIP_TRANSIENTS'])(
    'a forged %s action',
    async (type) => {
      const { decider } = roles();
      const forged = { ...decider.view, marker: 8, result: { winnerSide: 'US', reason: 'track' } };
      await expectRefused(
        decider,
        update(decider, { type, state: { G: forged, ctx: {}, _stateID: 99 }, payload: {} }),
        'BAD_MESSAGE',
      );
    },
  );

  it.each([
    ['endGame', undefined],
    ['endTurn', [{ next: '1' }]],
    ['endTurn', [{ next: '0' }]],
    ['setActivePlayers', [{ all: 'playCard' }]],
  ])('a GAME_EVENT %s', async (type, args) => {
    const { decider } = roles();
    await expectRefused(
      decider,
      update(decider, { type: 'GAME_EVENT', payload: { type, args, playerID: decider.playerID } }),
      'BAD_MESSAGE',
    );
  });

  it('a move for the other seat', async () => {
    const { decider, waiting } = roles();
    const legal = pickMove(decider, prng(1));
    await expectRefused(
      waiting,
      waiting.move(legal, { playerID: decider.playerID as string }),
      'UNAUTHORIZED',
    );
  });

  it('a move out of turn', async () => {
    const { waiting } = roles();
    await expectRefused(
      waiting,
      waiting.move({ move: 'finishStep', args: [] }),
      'NOT_YOUR_DECISION',
    );
  });

  it("a spectator's move, for either seat", async () => {
    const { decider } = roles();
    const legal = pickMove(decider, prng(2));
    for (const playerID of ['0', '1']) {
      await expectRefused(spectator, spectator.move(legal, { playerID }), 'UNAUTHORIZED');
    }
  });

  it('a move on a stale state', async () => {
    const { decider } = roles();
    const legal = pickMove(decider, prng(3));
    const stale = (decider.state?.stateID ?? 1) - 1;
    await expectRefused(decider, decider.move(legal, { stateID: stale }), 'STALE_STATE');
  });

  it('a move the rules refuse', async () => {
    const { decider } = roles();
    const error = await expectRefused(
      decider,
      decider.move({ move: 'removeCube', args: ['no-such-card'] }),
      'INVALID_MOVE',
    );
    expect(error.message).toMatch(/not allowed now/);
  });

  it.each([[[null]], [[]], [['x', { x: 0.5, y: 0 }]], [[{ toString: 1 }]]])(
    'malformed move arguments %j',
    async (args) => {
      const { decider } = roles();
      await expectRefused(
        decider,
        update(decider, {
          type: 'MAKE_MOVE',
          payload: { type: 'playCard', args, playerID: decider.playerID },
        }),
        'BAD_MESSAGE',
      );
    },
  );

  it('a sync for a match that does not exist creates nothing', async () => {
    const client = new GameClient(server.url);
    await client.connected();
    await expectRefused(
      client,
      client.emit('sync', {
        matchID: 'nosuchmatch123',
        playerID: '0',
        credentials: 'x'.repeat(32),
      }),
      'UNKNOWN_MATCH',
      false,
    );
    expect(await server.stores.matches.getMatch('nosuchmatch123')).toBeUndefined();
    client.close();
  });

  it('wrong, missing or the other seat’s credentials', async () => {
    const client = new GameClient(server.url);
    await client.connected();
    for (const [seat, creds] of [
      ['0', 'A'.repeat(32)],
      ['0', credentials['1']],
      ['1', credentials['0']],
      ['1', undefined],
    ] as const) {
      await expectRefused(
        client,
        client.emit('sync', { matchID, playerID: seat, credentials: creds }),
        'UNAUTHORIZED',
        false,
      );
    }
    // Still not seated: a move is refused as unsynced.
    client.matchID = matchID;
    client.state = seats['0'].state;
    client.playerID = '0';
    await expectRefused(client, client.move({ move: 'finishStep', args: [] }), 'NOT_SYNCED', false);
    client.close();
  });

  it('an unknown event', async () => {
    const { decider } = roles();
    await expectRefused(decider, decider.emit('whisper', { text: 'hi' }), 'BAD_MESSAGE', false);
  });

  it('an oversized message is refused; a huge one closes only that connection', async () => {
    const { decider } = roles();
    const big = 'x'.repeat(MAX_MESSAGE_BYTES + 100);
    await expectRefused(
      decider,
      update(decider, { type: 'MAKE_MOVE', payload: { type: big, args: [], playerID: '0' } }),
      'TOO_LARGE',
    );
    const victim = await seatClient(server.url, matchID, null);
    const closed = new Promise<string>((resolve) => victim.socket.on('disconnect', resolve));
    victim.socket.emit('update', { blob: 'y'.repeat(MAX_MESSAGE_BYTES * 8) });
    expect(await closed).toMatch(/transport/);
    expect((await request(`${server.url}/healthz`, 'GET')).status).toBe(200);
    expect(await stored()).toEqual(snapshot);
  });

  it('a socket from another origin is turned away; our own origin is let in', async () => {
    const evil = new GameClient(server.url, { headers: { origin: 'https://evil.example' } });
    await expect(evil.connected()).rejects.toThrow();
    evil.close();
    const own = new GameClient(server.url, { headers: { origin: server.url } });
    await own.connected();
    own.close();
  });

  it('a configured origin is let in', async () => {
    const other = await startServer({ env: { ALLOWED_ORIGINS: 'http://localhost:5173' } });
    const dev = new GameClient(other.url, { headers: { origin: 'http://localhost:5173' } });
    await dev.connected();
    const evil = new GameClient(other.url, { headers: { origin: 'http://localhost:5174' } });
    await expect(evil.connected()).rejects.toThrow();
    dev.close();
    evil.close();
    await other.close();
  });

  it('a flooding socket is rate limited', async () => {
    const limited = await startServer({
      env: { RATE_LIMIT_PER_SECOND: '1', RATE_LIMIT_BURST: '5' },
    });
    const client = new GameClient(limited.url);
    await client.connected();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        client.emit('sync', { matchID: 'nosuchmatch123', playerID: null }),
      ),
    );
    const codes = answers.map((a) => (a.ok ? 'ok' : a.error.code));
    expect(codes.filter((c) => c === 'RATE_LIMITED').length).toBeGreaterThanOrEqual(6);
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('UNKNOWN_MATCH'));
    client.close();
    await limited.close();
  });

  it('thousands of malformed payloads (fast-check) change nothing and kill nothing', async () => {
    const { waiting } = roles();
    const moveNames = [
      'chooseFirstPlayer',
      'playCard',
      'chooseAction',
      'decideEvent',
      'placeCube',
      'removeCube',
      'moveCard',
      'finishStep',
      'constructor',
      '__proto__',
    ];
    const nearlyValid = fc.record(
      {
        matchID: fc.oneof(fc.constant(matchID), fc.string(), fc.anything()),
        stateID: fc.oneof(fc.constant(waiting.state?.stateID), fc.integer(), fc.anything()),
        action: fc.record(
          {
            type: fc.oneof(fc.constantFrom('MAKE_MOVE', 'GAME_EVENT', 'UPDATE'), fc.string()),
            payload: fc.record(
              {
                type: fc.oneof(fc.constantFrom(...moveNames), fc.string()),
                args: fc.oneof(fc.array(fc.anything(), { maxLength: 3 }), fc.anything()),
                playerID: fc.oneof(fc.constantFrom('0', '1', null, 0, 1), fc.anything()),
                credentials: fc.string(),
              },
              { requiredKeys: [] },
            ),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: [] },
    );
    const anySync = fc.oneof(
      fc.anything(),
      fc.record(
        {
          matchID: fc.oneof(fc.constant(matchID), fc.string()),
          playerID: fc.oneof(fc.constantFrom('0', '1', null), fc.anything()),
          credentials: fc.oneof(fc.string(), fc.anything()),
        },
        { requiredKeys: [] },
      ),
    );
    const clients = [waiting, spectator];
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(0, 1),
        fc.oneof(
          fc.tuple(fc.constant('update'), fc.oneof(nearlyValid, fc.anything())),
          fc.tuple(fc.constant('sync'), anySync),
          fc.tuple(fc.string({ maxLength: 12 }), fc.anything()),
        ),
        async (who, [event, payload]) => {
          const ack = await (clients[who] as GameClient).emit(event, payload);
          sent += 1;
          if (ack.ok) expect(event).toBe('sync');
          else expect(ack.error.code).not.toMatch(/^(SERVER_ERROR|RATE_LIMITED)$/);
        },
      ),
      { numRuns: 3000, seed: 20261121 },
    );
    expect(sent).toBeGreaterThanOrEqual(3000);
    expect(await stored()).toEqual(snapshot);
    // Alive, and the match goes on.
    const { decider } = roles();
    expect(await decider.move(pickMove(decider, prng(9)))).toEqual({ ok: true });
    expect((await request(`${server.url}/healthz`, 'GET')).status).toBe(200);
  }, 240_000);
});

describe('the state a socket is sent', () => {
  it('holds no credentials, seed or plugin state even after refusals', () => {
    for (const client of [seats['0'], seats['1'], spectator]) {
      const all = client.wire.join('\n');
      expect(all).not.toContain(credentials['0']);
      expect(all).not.toContain(credentials['1']);
      expect(all).not.toContain('prngstate');
      expect(client.view.reserve.every((c) => c === '?')).toBe(true);
    }
  });
});

describe('before the second seat is taken', () => {
  it('refuses a move as WAITING_FOR_OPPONENT and runs no clock', async () => {
    const created = await request<{ matchID: string; credentials: string }>(
      `${server.url}/api/matches`,
      'POST',
      { name: 'Ann', side: 'USSR', clockMinutes: 5 },
    );
    const alone = await seatClient(server.url, created.body.matchID, '0', created.body.credentials);
    const ack = await alone.move({ move: 'chooseFirstPlayer', args: ['USSR'] });
    expect(ack).toMatchObject({ ok: false, error: { code: 'WAITING_FOR_OPPONENT' } });
    expect(alone.presence?.clock).toMatchObject({ running: null });
    alone.close();
  });
});
