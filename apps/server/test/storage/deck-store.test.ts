import { DEFAULT_DECK, deckFileOf } from '@iron-curtain/game';
import { expect, it } from 'vitest';
import type { StoredDeck } from '../../src/storage/index.ts';
import { deckInfoOf } from '../support.ts';
import { describeContract } from './contract.ts';

/** An uploaded deck under a hash of its own, stored at second `second` of the day. */
function deckOf(hash: string, second: number): StoredDeck {
  return {
    info: { ...deckInfoOf(DEFAULT_DECK), hash },
    file: deckFileOf(DEFAULT_DECK),
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString(),
  };
}

describeContract('the deck store', (backend) => {
  const store = () => backend.stores().decks;

  it('keeps a deck once by its hash, and reads it back as stored, on every instance', async () => {
    const deck = deckOf('a'.repeat(64), 1);
    expect(await store().saveDeck(deck)).toBe(true);
    expect(
      await backend.twin().decks.saveDeck({ ...deck, createdAt: deckOf('', 9).createdAt }),
    ).toBe(false);
    expect(await backend.twin().decks.getDeck(deck.info.hash)).toEqual(deck);
    expect(await store().getDeck('b'.repeat(64))).toBeUndefined();
  });

  it('lists the uploaded decks oldest first', async () => {
    const later = deckOf('d'.repeat(64), 30);
    const earlier = deckOf('c'.repeat(64), 20);
    await store().saveDeck(later);
    await store().saveDeck(earlier);
    const hashes = [earlier.info.hash, later.info.hash];
    const listed = (await store().listDecks()).filter((d) => hashes.includes(d.info.hash));
    expect(listed).toEqual([earlier, later]);
  });
});
