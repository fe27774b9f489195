import type { Deck } from './deck.ts';
import reconstructed from './reconstructed.json' with { type: 'json' };
import { loadDeck } from './schema.ts';

export * from './deck.ts';
export * from './schema.ts';

/** The default deck of deck.md: partly a reconstruction (see each field's status). */
export const DEFAULT_DECK: Deck = loadDeck(reconstructed);
