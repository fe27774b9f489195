import {
  BUILT_IN_DECKS,
  DEFAULT_DECK,
  deckFileOf,
  matchRecordSchema,
  type MatchRecord as ReplayRecord,
  replay,
  type State,
} from '@iron-curtain/game';
import type { DeckList, MatchInfo, RematchResponse } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { deckFileOfMatch, setupDataOf, UnknownDeckError } from '../src/decks/built-in-decks.ts';
import { initialState } from '../src/match/engine.ts';
import { hashSecret, newMatchID, newSeed } from '../src/ops/secrets.ts';
import type { MatchRecord } from '../src/storage/index.ts';
import {
  createAndJoin,
  DECK_VERSION_1,
  deckInfoOf,
  playOut,
  prng,
  request,
  type StoreKind,
  seatClient,
  serverOnStore,
} from './support.ts';

// Seat credentials are at least 22 characters long.
const SECRETS = {
  '0': 'ann-secret-of-22-chars-or-more',
  '1': 'boris-secret-of-22-chars-or-more',
} as const;

/**
 * A match in play as the server stored it while version 1 was the default deck: the record
 * names the deck by hash only (no deck in setupData), the state is dealt from version 1.
 */
function storedVersion1Match(): MatchRecord {
  const now = new Date().toISOString();
  return {
    matchID: newMatchID(),
    visibility: 'public',
    status: 'playing',
    variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    deck: deckInfoOf(DECK_VERSION_1),
    setupData: {
      sides: { '0': 'US', '1': 'USSR' },
      variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
    },
    seed: newSeed(),
    inviteHash: hashSecret('invite'),
    players: [
      { seat: '0', side: 'US', name: 'Ann', credentialsHash: hashSecret(SECRETS['0']) },
      { seat: '1', side: 'USSR', name: 'Boris', credentialsHash: hashSecret(SECRETS['1']) },
    ],
    createdAt: now,
    updatedAt: now,
    result: null,
    clock: null,
  };
}

describe('a match names its built-in deck version by hash', () => {
  it('the default deck is filled in as version 1 for a match made with version 1', () => {
    expect(DEFAULT_DECK.version).toBe('2');
    const match = storedVersion1Match();
    expect(setupDataOf(match).deck).toEqual(deckFileOf(DECK_VERSION_1));
    expect(deckFileOfMatch(match)).toEqual(deckFileOf(DECK_VERSION_1));
    expect((initialState(match).G as State).deck.hash).toBe(DECK_VERSION_1.hash);
  });

  it('an unknown deck hash is refused with an error naming it, never dealt the default', () => {
    const match = storedVersion1Match();
    const unknown = { ...match, deck: { ...match.deck, hash: 'e'.repeat(64) } };
    const named = `deck 'reconstructed' version 1 (hash ${'e'.repeat(64)}) is not a built-in deck of this server`;
    expect(() => setupDataOf(unknown)).toThrow(UnknownDeckError);
    expect(() => setupDataOf(unknown)).toThrow(named);
    expect(() => initialState(unknown)).toThrow(named);
    expect(() => deckFileOfMatch(unknown)).toThrow(named);
  });
});

describe.each(['sqlite', 'postgres'] as StoreKind[])('deck versions on the %s store', (kind) => {
  const server = serverOnStore(kind);

  it('the lobby lists every built-in version, the default first, and deals the one asked for', async () => {
    const list = await request<DeckList>(`${server().url}/api/decks`, 'GET');
    expect(list.body.decks.map((d) => [d.version, d.hash])).toEqual(
      BUILT_IN_DECKS.map((d) => [d.version, d.hash]),
    );
    expect(list.body.decks[0]?.hash).toBe(DEFAULT_DECK.hash);

    const byId = await createAndJoin(server().url, { deckId: DEFAULT_DECK.id });
    const byHash = await createAndJoin(server().url, { deckId: DECK_VERSION_1.hash });
    const deckOf = async (matchID: string) =>
      (await request<MatchInfo>(`${server().url}/api/matches/${matchID}`, 'GET')).body.deck;
    expect(await deckOf(byId.created.matchID)).toMatchObject({ version: '2' });
    expect(await deckOf(byHash.created.matchID)).toMatchObject({
      version: '1',
      hash: DECK_VERSION_1.hash,
    });
    const watcher = await seatClient(server().url, byHash.created.matchID, null);
    expect(watcher.rules?.deck.hash).toBe(DECK_VERSION_1.hash);
    expect(watcher.view.deck.hash).toBe(DECK_VERSION_1.hash);
    watcher.close();
  });

  it('a match stored with version 1 syncs and plays on with version 1, and its record replays with it', async () => {
    const match = storedVersion1Match();
    await server().stores.matches.createMatch(match, initialState(match));
    const { matchID } = match;
    const seats = {
      '0': await seatClient(server().url, matchID, '0', SECRETS['0']),
      '1': await seatClient(server().url, matchID, '1', SECRETS['1']),
    };
    expect(seats['0'].rules?.deck.hash).toBe(DECK_VERSION_1.hash);
    expect(seats['0'].rules?.deck.cards.find((c) => c.id === 'chile')?.eventText).toEqual([
      'gain 1',
    ]);
    const moves = await playOut(seats, [], prng(kind === 'sqlite' ? 21 : 22));
    expect(seats['0'].gameover).toBeDefined();

    const answer = await request<ReplayRecord>(
      `${server().url}/api/matches/${matchID}/record`,
      'GET',
    );
    expect(answer.status).toBe(200);
    // Imported from its JSON, as the replay page imports a record file.
    const record = matchRecordSchema.parse(JSON.parse(answer.text));
    expect(record.moves).toHaveLength(moves);
    expect(record.setupData.deck).toEqual(deckFileOf(DECK_VERSION_1));
    const replayed = replay(record);
    expect(replayed.rules.deck.hash).toBe(DECK_VERSION_1.hash);
    expect(replayed.final.G).toEqual((await server().stores.matches.loadState(matchID))?.G);
    seats['0'].close();
    seats['1'].close();
  }, 60_000);

  it('a rematch of a version 1 match is dealt with version 1', async () => {
    const { created, joined } = await createAndJoin(server().url, {
      deckId: DECK_VERSION_1.hash,
    });
    const { matchID } = created;
    await request(`${server().url}/api/matches/${matchID}/leave`, 'POST', {
      seat: '1',
      credentials: joined.credentials,
    });
    const offer = (seat: '0' | '1', credentials: string) =>
      request<RematchResponse>(`${server().url}/api/matches/${matchID}/rematch`, 'POST', {
        seat,
        credentials,
      });
    expect((await offer('0', created.credentials)).status).toBe(200);
    const next = (await offer('1', joined.credentials)).body.rematch.matchID as string;
    expect(next).toEqual(expect.any(String));

    const info = await request<MatchInfo>(`${server().url}/api/matches/${next}`, 'GET');
    expect(info.body.deck).toMatchObject({ version: '1', hash: DECK_VERSION_1.hash });
    const state = await server().stores.matches.loadState(next);
    expect((state?.G as State | undefined)?.deck.hash).toBe(DECK_VERSION_1.hash);
    const player = await seatClient(server().url, next, '0', created.credentials);
    expect(player.rules?.deck.hash).toBe(DECK_VERSION_1.hash);
    player.close();
  });
});
