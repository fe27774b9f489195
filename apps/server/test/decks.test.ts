import { BUILT_IN_DECKS, DEFAULT_DECK, deckFileOf } from '@iron-curtain/game';
import type { DeckList, DeckUploadResponse, MatchInfo } from '@iron-curtain/protocol';
import { describe, expect, it } from 'vitest';
import { createAndJoin, request, type StoreKind, seatClient, serverOnStore } from './support.ts';

type Refusal = {
  error: { code: string; message: string; issues?: { path: string; message: string }[] };
};

/** The default deck as a file, corrected the way an owner of the printed game would. */
const corrected = () => {
  const file = structuredClone(deckFileOf(DEFAULT_DECK));
  file.version = 'printed-1';
  file.name = 'Printed cards';
  return file;
};

describe.each(['sqlite', 'postgres'] as StoreKind[])('uploaded decks on the %s store', (kind) => {
  const server = serverOnStore(kind);

  it('refuses a deck with errors, naming each bad field', async () => {
    const bad = corrected();
    (bad.cards[1] as { command: number }).command = 7;
    (bad.regions[0] as { bonus: number }).bonus = -1;
    const answer = await request<Refusal>(`${server().url}/api/decks`, 'POST', bad);
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('BAD_DECK');
    expect(answer.body.error.issues).toEqual(
      expect.arrayContaining([
        { path: 'cards[1].command', message: 'command value must be 1 to 4' },
        expect.objectContaining({ path: 'regions[0].bonus' }),
      ]),
    );
    const list = await request<DeckList>(`${server().url}/api/decks`, 'GET');
    expect(list.body.decks).toHaveLength(BUILT_IN_DECKS.length);
    const huge = await request<Refusal>(`${server().url}/api/decks`, 'POST', {
      ...corrected(),
      name: 'x'.repeat(70_000),
    });
    expect(huge.status).toBe(413);
  });

  it('refuses a deck whose id, version or name is not plain text, and lists nothing of it', async () => {
    const cases = [
      { field: 'name', value: '<img src=x onerror=alert(1)>' },
      { field: 'name', value: 'Printed &amp; checked' },
      { field: 'name', value: '\u200B\u200B' },
      { field: 'version', value: 'v1\u202Egnp' },
      { field: 'id', value: 'deck\u2028two' },
    ];
    for (const { field, value } of cases) {
      const answer = await request<Refusal>(`${server().url}/api/decks`, 'POST', {
        ...corrected(),
        [field]: value,
      });
      expect(answer.status, value).toBe(400);
      expect(answer.body.error.code).toBe('BAD_DECK');
      expect(answer.body.error.issues).toEqual([{ path: field, message: expect.any(String) }]);
    }
    const list = await request<DeckList>(`${server().url}/api/decks`, 'GET');
    expect(list.text).not.toContain('<img');
    expect(list.text).not.toContain('&amp;');
    expect(list.body.decks).toHaveLength(BUILT_IN_DECKS.length);
  });

  it('stores a valid deck once, lists it, and deals a match from it', async () => {
    const first = await request<DeckUploadResponse>(
      `${server().url}/api/decks`,
      'POST',
      corrected(),
    );
    expect(first.status).toBe(201);
    expect(first.body.deck).toMatchObject({
      id: DEFAULT_DECK.id,
      version: 'printed-1',
      name: 'Printed cards',
    });
    expect(first.body.deck.hash).toMatch(/^[0-9a-f]{64}$/);
    // The same deck written in another key order is the same deck.
    const reordered = Object.fromEntries(Object.entries(corrected()).reverse());
    const second = await request<DeckUploadResponse>(
      `${server().url}/api/decks`,
      'POST',
      reordered,
    );
    expect(second.status).toBe(200);
    expect(second.body.deck.hash).toBe(first.body.deck.hash);

    const list = await request<DeckList>(`${server().url}/api/decks`, 'GET');
    expect(list.body.decks.map((d) => d.hash)).toEqual([
      ...BUILT_IN_DECKS.map((d) => d.hash),
      first.body.deck.hash,
    ]);

    const { created } = await createAndJoin(server().url, { deckId: first.body.deck.hash });
    const info = await request<MatchInfo>(`${server().url}/api/matches/${created.matchID}`, 'GET');
    expect(info.body.deck).toEqual(first.body.deck);
    const watcher = await seatClient(server().url, created.matchID, null);
    // The sync brings the deck once; the state names it by its hash.
    expect(watcher.rules?.deck).toMatchObject({ name: 'Printed cards', version: 'printed-1' });
    expect(watcher.view.deck).toEqual({
      id: DEFAULT_DECK.id,
      version: 'printed-1',
      hash: first.body.deck.hash,
    });
    watcher.close();

    const unknown = await request<Refusal>(`${server().url}/api/matches`, 'POST', {
      name: 'Ann',
      deckId: 'f'.repeat(64),
    });
    expect(unknown.body.error.code).toBe('UNKNOWN_DECK');
  });
});
