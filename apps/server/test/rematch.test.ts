import type { MatchInfo, RematchResponse } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { BotCredentials } from '../src/bots/credentials.ts';
import { createAndJoin, request, type StoreKind, seatClient, serverOnStore } from './support.ts';

type Answer = RematchResponse & { error?: { code: string } };

describe.each(['sqlite', 'postgres'] as StoreKind[])('rematch on the %s store', (kind) => {
  const server = serverOnStore(kind);

  it('starts once both seats agree, sides swapped, and spectators are pointed to it', async () => {
    const { created, joined } = await createAndJoin(server().url, {
      side: 'US',
      clockMinutes: 5,
      variants: { finalScoringOrder: 'polish' },
    });
    const { matchID } = created;
    const offer = (seat: '0' | '1', credentials: string) =>
      request<Answer>(`${server().url}/api/matches/${matchID}/rematch`, 'POST', {
        seat,
        credentials,
      });

    // Not before the end.
    expect((await offer('0', created.credentials)).body.error?.code).toBe('NOT_FINISHED');
    const spectator = await seatClient(server().url, matchID, null);
    await request(`${server().url}/api/matches/${matchID}/leave`, 'POST', {
      seat: '1',
      credentials: joined.credentials,
    });
    await spectator.until(() => spectator.presence?.status === 'finished', 'the resignation');

    expect((await offer('0', joined.credentials)).status).toBe(403);
    const first = await offer('0', created.credentials);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ rematch: { offers: ['0'], matchID: null }, seat: null });
    await spectator.until(() => spectator.presence?.rematch?.offers.length === 1, 'the offer');

    const second = await offer('1', joined.credentials);
    const next = second.body.rematch.matchID;
    expect(next).toEqual(expect.any(String));
    expect(second.body.seat).toEqual({
      matchID: next,
      seat: '1',
      side: 'US',
      credentials: joined.credentials,
    });
    await spectator.until(() => spectator.presence?.rematch?.matchID === next, 'the redirect');
    const old = await request<MatchInfo>(`${server().url}/api/matches/${matchID}`, 'GET');
    expect(old.body.rematch).toEqual({ offers: ['0', '1'], matchID: next });

    // The first to offer learns the same match, its own seat with the other side.
    const again = await offer('0', created.credentials);
    expect(again.body.seat).toMatchObject({ matchID: next, seat: '0', side: 'USSR' });

    const info = await request<MatchInfo>(`${server().url}/api/matches/${next}`, 'GET');
    expect(info.body).toMatchObject({
      status: 'playing',
      rematchOf: matchID,
      variants: { finalScoringOrder: 'polish' },
      players: [
        { seat: '0', side: 'USSR', name: 'Ann' },
        { seat: '1', side: 'US', name: 'Boris' },
      ],
      clock: { perPlayerMs: 300_000 },
    });
    const ann = await seatClient(server().url, next as string, '0', created.credentials);
    expect((ann.view as unknown as { sides: Record<string, string> }).sides).toEqual({
      '0': 'USSR',
      '1': 'US',
    });
    spectator.close();
    ann.close();
  });

  it('against the computer starts on the player’s offer, the computer seat kept at its level', async () => {
    const created = await request<{ matchID: string; credentials: string }>(
      `${server().url}/api/matches`,
      'POST',
      { name: 'Ann', side: 'US', opponent: 'easy' },
    );
    const { matchID, credentials } = created.body;
    await request(`${server().url}/api/matches/${matchID}/leave`, 'POST', {
      seat: '0',
      credentials,
    });
    const answer = await request<Answer>(`${server().url}/api/matches/${matchID}/rematch`, 'POST', {
      seat: '0',
      credentials,
    });
    expect(answer.body.seat).toMatchObject({ seat: '0', side: 'USSR', credentials });
    const next = await server().stores.matches.getMatch(answer.body.rematch.matchID as string);
    expect(next && (await new BotCredentials(server().stores.secrets).seatsOf(next))).toEqual([
      expect.objectContaining({ seat: '1', level: 'easy' }),
    ]);
  });
});
