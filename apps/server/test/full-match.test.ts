import { type LogEntry, publicView } from '@iron-curtain/game';
import {
  createMatchResponseSchema,
  matchInfoSchema,
  matchListSchema,
  seatGrantSchema,
  syncMessageSchema,
} from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAndJoin,
  type GameClient,
  pickMove,
  prng,
  request,
  seatClient,
  startServer,
  type TestServer,
} from './support.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('a complete match through the lobby API', () => {
  it('two seats play to the end while a spectator sees every public change', async () => {
    const { created, joined } = await createAndJoin(server.url, {
      side: 'US',
      visibility: 'public',
    });
    expect(createMatchResponseSchema.parse(created).seat).toBe('0');
    expect(created.side).toBe('US');
    expect(seatGrantSchema.parse(joined)).toMatchObject({ seat: '1', side: 'USSR' });
    expect(created.links.spectate).toBe(`/watch/${created.matchID}`);
    expect(created.links.invite).toMatch(new RegExp(`^/join/${created.matchID}#.{22,}$`));

    const listed = await request(`${server.url}/api/matches?status=playing`, 'GET');
    expect(matchListSchema.parse(listed.body).matches.map((m) => m.matchID)).toContain(
      created.matchID,
    );

    const spectator = await seatClient(server.url, created.matchID, null);
    const us = await seatClient(server.url, created.matchID, '0', created.credentials);
    const ussr = await seatClient(server.url, created.matchID, '1', joined.credentials);
    await spectator.until(
      () =>
        spectator.presence?.players['0'].connected === true &&
        spectator.presence.players['1'].connected,
      'both seats present',
    );
    expect(spectator.presence).toMatchObject({
      players: { '0': { name: 'Ann' }, '1': { name: 'Boris' } },
      spectators: 1,
      status: 'playing',
    });
    const syncFrame = spectator.wire.find((w) => w.includes('"sync"'));
    expect(syncFrame).toBeDefined();
    expect(() =>
      syncMessageSchema.parse(
        JSON.parse((syncFrame as string).slice((syncFrame as string).indexOf('[')))[1],
      ),
    ).not.toThrow();

    // Every state the seats reach, the spectator is sent too, with the same public picture.
    const publicAt = new Map<number, string>();
    const seen: number[] = [];
    // Registered after the client's own handler: the state it holds once the update applied.
    spectator.socket.on('update', () => {
      const frame = spectator.state;
      if (!frame) throw new Error('an update before any sync');
      seen.push(frame.stateID);
      publicAt.set(frame.stateID, JSON.stringify(publicView(frame.G)));
    });

    const random = prng(20261121);
    const seats = { '0': us, '1': ussr } as const;
    let moves = 0;
    while (us.gameover === undefined) {
      const seat = us.view.decision?.seat;
      expect(seat).toBeDefined();
      const player: GameClient = seats[seat as '0' | '1'];
      const before = player.state?.stateID ?? 0;
      const ack = await player.move(pickMove(player, random));
      expect(ack).toEqual({ ok: true });
      moves += 1;
      await Promise.all(
        [us, ussr, spectator].map((c) => c.until(() => (c.state?.stateID ?? 0) > before, 'update')),
      );
      expect(JSON.stringify(publicView(us.view))).toBe(publicAt.get(before + 1));
      expect(JSON.stringify(publicView(ussr.view))).toBe(publicAt.get(before + 1));
    }
    expect(moves).toBeGreaterThan(10);
    expect(seen).toEqual(Array.from({ length: moves }, (_, i) => i + 1));
    expect(us.refusals).toEqual([]);
    expect(ussr.refusals).toEqual([]);

    // The log the spectator built from updates is the log a fresh sync sends.
    const late = await seatClient(server.url, created.matchID, null);
    expect(late.log).toEqual(spectator.log);
    expect(late.log.at(-1)?.type).toBe('gameOver');
    const gameOver = late.log.at(-1) as Extract<LogEntry, { type: 'gameOver' }>;

    await spectator.until(() => spectator.presence?.status === 'finished', 'finished presence');
    const info = matchInfoSchema.parse(
      (await request(`${server.url}/api/matches/${created.matchID}`, 'GET')).body,
    );
    expect(info.status).toBe('finished');
    expect(info.result).toMatchObject({ winnerSide: gameOver.result.winnerSide });
    expect(info.spectators).toBe(2);

    // A finished match takes no more moves.
    const after = await us.move({ move: 'finishStep', args: [] });
    expect(after).toMatchObject({ ok: false, error: { code: 'MATCH_OVER' } });

    for (const c of [us, ussr, spectator, late]) c.close();
  });

  it('a move that asks for no ack is answered by its update alone: one frame to the mover', async () => {
    const { created, joined } = await createAndJoin(server.url, {});
    const seats = {
      '0': await seatClient(server.url, created.matchID, '0', created.credentials),
      '1': await seatClient(server.url, created.matchID, '1', joined.credentials),
    } as const;
    const random = prng(5);
    /** The frames the mover's socket receives for one move, up to the ack of a sync sent after it. */
    const framesOfOneMove = async (askAck: boolean) => {
      const mover: GameClient = seats[seats['0'].view.decision?.seat as '0' | '1'];
      const move = pickMove(mover, random);
      const before = mover.state?.stateID ?? 0;
      const from = mover.wire.length;
      const request = {
        matchID: created.matchID,
        stateID: before,
        action: {
          type: 'MAKE_MOVE',
          payload: { type: move.move, args: move.args, playerID: mover.playerID },
        },
      };
      if (askAck) expect(await mover.emit('update', request)).toEqual({ ok: true });
      else mover.socket.emit('update', request);
      await mover.until(() => (mover.state?.stateID ?? 0) > before, 'update');
      // The sync is answered after the move's work in the match's queue: every frame the
      // move caused has arrived before the sync's ack (the last ack in the window).
      const credentials = mover === seats['0'] ? created.credentials : joined.credentials;
      expect(await mover.sync(created.matchID, mover.playerID, credentials)).toEqual({ ok: true });
      const frames = mover.wire.slice(from);
      return {
        updates: frames.filter((w) => w.startsWith('message:2/game,["update"')).length,
        acks: frames.filter((w) => w.startsWith('message:3/game,')).length - 1,
      };
    };
    expect(await framesOfOneMove(true)).toEqual({ updates: 1, acks: 1 });
    expect(await framesOfOneMove(false)).toEqual({ updates: 1, acks: 0 });
    for (const c of Object.values(seats)) c.close();
  });

  it('leaving a match in play resigns it and tells everyone', async () => {
    const { created, joined } = await createAndJoin(server.url, { side: 'USSR' });
    const ussr = await seatClient(server.url, created.matchID, '0', created.credentials);
    const us = await seatClient(server.url, created.matchID, '1', joined.credentials);
    // The USSR chooses who goes first: the match is under way.
    expect(await ussr.move(pickMove(ussr, prng(1)))).toEqual({ ok: true });
    const left = await request(`${server.url}/api/matches/${created.matchID}/leave`, 'POST', {
      seat: '0',
      credentials: created.credentials,
    });
    expect(left.status).toBe(200);
    expect(matchInfoSchema.parse(left.body)).toMatchObject({
      status: 'finished',
      result: { winner: '1', winnerSide: 'US', reason: 'resigned' },
    });
    await us.until(() => us.presence?.status === 'finished', 'resignation pushed');
    expect(us.presence?.result).toMatchObject({ winner: '1', reason: 'resigned' });
    ussr.close();
    us.close();
  });
});
