import reconstructed from './reconstructed.json' with { type: 'json' };
import { type Deck, loadDeck } from './schema.ts';

export * from './schema.ts';

/** The default deck of deck.md: partly a reconstruction (see each field's status). */
export const DEFAULT_DECK: Deck = loadDeck(reconstructed);
