import type { Deck } from './deck/deck.ts';
import type { Variants } from './types.ts';

/**
 * What the rules of one match need besides its state, and what never changes during it: the
 * deck and the edition variants. Passed in wherever the engine needs it, never stored in the
 * state, sent to a client once.
 */
export interface RulesContext {
  deck: Deck;
  variants: Variants;
}

/** A deck as a state names it: by content hash, with id and version for people. */
export interface DeckRef {
  id: string;
  version: string;
  hash: string;
}

export const deckRef = (deck: Deck): DeckRef => ({
  id: deck.id,
  version: deck.version,
  hash: deck.hash,
});

/** One string per distinct context, for caches keyed by it. */
export const rulesKey = (rules: RulesContext): string =>
  `${rules.deck.hash}:${rules.variants.aftermathCap ?? 'none'}:${rules.variants.finalScoringOrder}`;
