import { type MatchRecord, matchRecordSchema, RECORD_VERSION, replay } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import {
  createAndJoin,
  playOut,
  prng,
  request,
  type StoreKind,
  seatClient,
  serverOnStore,
} from './support.ts';

describe.each(['sqlite', 'postgres'] as StoreKind[])(
  'the replay record on the %s store',
  (kind) => {
    const server = serverOnStore(kind);

    it('is refused while the match is waiting or in play (the seed would reveal the deal)', async () => {
      const waiting = await request<{ matchID: string }>(`${server().url}/api/matches`, 'POST', {
        name: 'Ann',
      });
      const early = await request<{ error: { code: string } }>(
        `${server().url}/api/matches/${waiting.body.matchID}/record`,
        'GET',
      );
      expect(early.status).toBe(409);
      expect(early.body.error.code).toBe('NOT_FINISHED');
      const { created } = await createAndJoin(server().url);
      const playing = await request(`${server().url}/api/matches/${created.matchID}/record`, 'GET');
      expect(playing.status).toBe(409);
      expect(playing.text).not.toContain('seed');
    });

    it('replays a finished match to its stored final state', async () => {
      const { created, joined } = await createAndJoin(server().url);
      const seats = {
        '0': await seatClient(server().url, created.matchID, '0', created.credentials),
        '1': await seatClient(server().url, created.matchID, '1', joined.credentials),
      };
      const moves = await playOut(seats, [], prng(kind === 'sqlite' ? 11 : 12));
      expect(seats['0'].gameover).toBeDefined();
      const answer = await request<MatchRecord>(
        `${server().url}/api/matches/${created.matchID}/record`,
        'GET',
      );
      expect(answer.status).toBe(200);
      const record = matchRecordSchema.parse(answer.body);
      // The format says its version: a reader knows a placeCubes move may be in it.
      expect(record.version).toBe(RECORD_VERSION);
      expect(record.moves).toHaveLength(moves);
      expect(record.setupData.deck).toMatchObject({ id: 'reconstructed' });
      // The replay shows who played, not just the sides.
      expect(record.names).toEqual({ '0': 'Ann', '1': 'Boris' });
      const replayed = replay(record);
      const stored = await server().stores.matches.loadState(created.matchID);
      expect(replayed.final.G).toEqual(stored?.G);
      expect(replayed.final.ctx.gameover).toEqual(stored?.ctx.gameover);
      expect(replayed.log).toEqual(seats['0'].log);
      seats['0'].close();
      seats['1'].close();
    }, 60_000);
  },
);
