import { DEFAULT_DECK, deckFileOf } from '@iron-curtain/game';
import type { DeckUploadResponse, RematchResponse } from '@iron-curtain/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualTime } from './manual-time.ts';
import {
  createAndJoin,
  dropSchema,
  openTestStores,
  pickMove,
  prng,
  request,
  type StoreKind,
  seatClient,
  startServer,
  tempDir,
  uniqueSchema,
} from './support.ts';

// Years before the test runs, with milliseconds: a time the real clock stamped would differ
// by years, and a store that dropped the milliseconds would differ too.
const START = Date.parse('2025-03-04T05:06:07.089Z');
const iso = (ms: number) => new Date(ms).toISOString();

describe.each(['sqlite', 'postgres'] as StoreKind[])('times stored on the %s store', (kind) => {
  const where = kind === 'sqlite' ? tempDir() : uniqueSchema();
  afterAll(async () => {
    if (kind === 'postgres') await dropSchema(where);
  });

  it('are the injected clock’s, never the machine’s: creation, moves, the end, the rematch, a deck', async () => {
    const time = new ManualTime(START);
    const server = await startServer({ stores: await openTestStores(kind, where), time });
    const { stores } = server;
    try {
      const { created, joined } = await createAndJoin(server.url, { side: 'US' });
      const { matchID } = created;
      expect(await stores.matches.getMatch(matchID)).toMatchObject({
        createdAt: iso(START),
        updatedAt: iso(START),
      });

      const seats = {
        '0': await seatClient(server.url, matchID, '0', created.credentials),
        '1': await seatClient(server.url, matchID, '1', joined.credentials),
      };
      const random = prng(35);
      const moveTimes: number[] = [];
      for (let i = 1; i <= 3; i++) {
        time.skip(61_001);
        const seat = seats['0'].view.decision?.seat ?? '0';
        const ack = await seats[seat].move(pickMove(seats[seat], random));
        expect(ack).toEqual({ ok: true });
        moveTimes.push(time.now());
        await Promise.all(
          [seats['0'], seats['1']].map((c) => c.until(() => c.state?.stateID === i, `state ${i}`)),
        );
      }
      expect((await stores.matches.readMoves(matchID)).map((m) => m.at)).toEqual(
        moveTimes.map(iso),
      );
      expect((await stores.matches.getMatch(matchID))?.updatedAt).toBe(iso(moveTimes[2] as number));

      time.skip(3_600_000);
      const resigned = await request(`${server.url}/api/matches/${matchID}/leave`, 'POST', {
        seat: '1',
        credentials: joined.credentials,
      });
      expect(resigned.status).toBe(200);
      expect(await stores.matches.getMatch(matchID)).toMatchObject({
        status: 'finished',
        createdAt: iso(START),
        updatedAt: iso(time.now()),
      });

      const offer = (seat: '0' | '1', credentials: string) =>
        request<RematchResponse>(`${server.url}/api/matches/${matchID}/rematch`, 'POST', {
          seat,
          credentials,
        });
      time.skip(5_000);
      await offer('0', created.credentials);
      time.skip(7_000);
      const agreed = await offer('1', joined.credentials);
      const rematchID = agreed.body.rematch.matchID as string;
      expect(await stores.matches.getMatch(rematchID)).toMatchObject({
        rematchOf: matchID,
        createdAt: iso(time.now()),
        updatedAt: iso(time.now()),
      });

      time.skip(86_400_000);
      const file = structuredClone(deckFileOf(DEFAULT_DECK));
      file.version = 'printed-1';
      const uploaded = await request<DeckUploadResponse>(`${server.url}/api/decks`, 'POST', file);
      expect(uploaded.status).toBe(201);
      expect((await stores.decks.getDeck(uploaded.body.deck.hash))?.createdAt).toBe(
        iso(time.now()),
      );

      for (const client of Object.values(seats)) client.close();
    } finally {
      await server.close();
    }
  });
});
