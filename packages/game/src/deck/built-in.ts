import type { Deck } from './deck.ts';
import version1 from './reconstructed-1.json' with { type: 'json' };
import version2 from './reconstructed-2.json' with { type: 'json' };
import { loadDeck } from './schema.ts';

/**
 * The default deck of deck.md, newest version: partly a reconstruction (see each field's
 * status). A new version is a new file beside the old ones, never an edit of them.
 */
export const DEFAULT_DECK: Deck = loadDeck(version2);

/**
 * Every built-in version of the default deck, newest (the default) first. Older versions stay
 * so that matches and records made with them keep replaying with them (they name it by hash).
 * Pure, so that a bundle that never asks for the older versions leaves their files out.
 */
export const BUILT_IN_DECKS: readonly Deck[] = [DEFAULT_DECK, /* @__PURE__ */ loadDeck(version1)];

/** The built-in deck with this content hash, if there is one. */
export const builtInDeck = (hash: string): Deck | undefined =>
  BUILT_IN_DECKS.find((deck) => deck.hash === hash);
