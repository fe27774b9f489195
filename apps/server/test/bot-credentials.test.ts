import { createHmac } from 'node:crypto';
import { BOT_LEVELS } from '@iron-curtain/bots';
import type { CreateMatchResponse, RematchResponse } from '@iron-curtain/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotCredentials } from '../src/bots/credentials.ts';
import { hashSecret } from '../src/ops/secrets.ts';
import { GameClient, request, seatClient, startServer, type TestServer } from './support.ts';

/** How computer seats' credentials were made before the server key: from the match's seed. */
const fromSeed = (seed: string, seat: string, level: string) =>
  createHmac('sha256', seed).update(`bot-seat:${seat}:${level}`).digest('base64url');

let server: TestServer;
const clients: GameClient[] = [];
beforeAll(async () => {
  server = await startServer({ env: { BOT_MOVE_DELAY_MS: '0' } });
});
afterAll(async () => {
  for (const c of clients) c.close();
  await server.close();
});

/** Ann resigns by leaving: the match is over and its record (with the seed) is public. */
async function resign(matchID: string, credentials: string) {
  const left = await request(`${server.url}/api/matches/${matchID}/leave`, 'POST', {
    seat: '0',
    credentials,
  });
  expect(left.status).toBe(200);
}

/** Tries a seat's credentials where a client can use them: a rematch offer and a socket sync. */
async function tryCredentials(matchID: string, credentials: string) {
  const offer = await request(`${server.url}/api/matches/${matchID}/rematch`, 'POST', {
    seat: '1',
    credentials,
  });
  const client = new GameClient(server.url);
  clients.push(client);
  const sync = await client.sync(matchID, '1', credentials);
  client.close();
  return { offer: offer.status, sync: sync.ok };
}

describe('computer players’ credentials', () => {
  it('cannot be computed from a finished match’s public record', async () => {
    const created = await request<CreateMatchResponse>(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      opponent: 'hard',
    });
    const { matchID, credentials } = created.body;
    await resign(matchID, credentials);
    const record = await request<{ seed: string }>(
      `${server.url}/api/matches/${matchID}/record`,
      'GET',
    );
    expect(record.status).toBe(200);
    for (const level of BOT_LEVELS) {
      expect(await tryCredentials(matchID, fromSeed(record.body.seed, '1', level))).toEqual({
        offer: 403,
        sync: false,
      });
    }
    // The seat is still the computer's: its own credentials, made under the server's key, open it.
    const key = await new BotCredentials(server.stores.secrets).of(matchID, '1', 'hard');
    expect((await tryCredentials(matchID, key)).sync).toBe(true);
  });

  it('of a match created before the server key still play, and its rematch gets keyed ones', async () => {
    // A match as the server made them before: the computer's seat hash derived from the seed.
    const created = await request<CreateMatchResponse>(`${server.url}/api/matches`, 'POST', {
      name: 'Ann',
      side: 'US',
    });
    const { matchID, credentials } = created.body;
    const match = await server.stores.matches.getMatch(matchID);
    if (!match) throw new Error('no match');
    const old = fromSeed(match.seed, '1', 'easy');
    const now = new Date().toISOString();
    expect(
      await server.stores.matches.claimSeat(matchID, '1', 'Computer (easy)', hashSecret(old), now),
    ).toBe(true);

    // Ann comes to the table: the computer (the USSR) chooses who goes first by itself.
    const ann = await seatClient(server.url, matchID, '0', credentials);
    clients.push(ann);
    await ann.until(() => (ann.state?.stateID ?? 0) >= 1, 'the computer to choose', 15_000);
    expect(ann.log[0]).toMatchObject({ type: 'firstPlayer', chooser: 'USSR' });

    // Over, the seed is public; the rematch the computer agrees to is keyed, not seeded.
    await resign(matchID, credentials);
    const offer = await request<RematchResponse>(
      `${server.url}/api/matches/${matchID}/rematch`,
      'POST',
      { seat: '0', credentials },
    );
    const next = offer.body.rematch.matchID;
    if (!next) throw new Error(`no rematch: ${JSON.stringify(offer.body)}`);
    const rematch = await server.stores.matches.getMatch(next);
    if (!rematch) throw new Error('no rematch stored');
    const bots = new BotCredentials(server.stores.secrets);
    expect(await bots.seatsOf(rematch)).toEqual([
      { seat: '1', level: 'easy', credentials: await bots.of(next, '1', 'easy') },
    ]);
    expect(await tryCredentials(next, old)).toEqual({ offer: 403, sync: false });
  });
});
