import type { Card, Deck, Region } from './deck/deck.ts';
import type { CardId, RegionId } from './types.ts';

export interface DeckIndex {
  card(id: CardId): Card;
  region(id: RegionId): Region;
  hasCard(id: unknown): id is CardId;
  strategyCards: CardId[];
}

// A deck never changes during a match; its lookups are built once per deck object.
const cache = new WeakMap<Deck, DeckIndex>();

export function indexDeck(deck: Deck): DeckIndex {
  let index = cache.get(deck);
  if (!index) {
    const cards = new Map(deck.cards.map((c) => [c.id, c]));
    const regions = new Map(deck.regions.map((r) => [r.id, r]));
    index = {
      card: (id) => {
        const card = cards.get(id);
        if (!card) throw new Error(`no card '${id}' in deck '${deck.id}'`);
        return card;
      },
      region: (id) => {
        const region = regions.get(id);
        if (!region) throw new Error(`no region '${id}' in deck '${deck.id}'`);
        return region;
      },
      hasCard: (id): id is CardId => typeof id === 'string' && cards.has(id),
      strategyCards: deck.cards.filter((c) => c.id !== deck.starter).map((c) => c.id),
    };
    cache.set(deck, index);
  }
  return index;
}
