import {
  BUILT_IN_DECKS,
  builtInDeck,
  DEFAULT_DECK,
  type Deck,
  type DeckFile,
  deckFileOf,
  isReconstructed,
} from '@iron-curtain/game';
import type { DeckInfo } from '@iron-curtain/protocol';

/** What a deck says of itself, as the lobby lists it. */
export const deckInfoOf = (deck: Deck): DeckInfo => ({
  id: deck.id,
  version: deck.version,
  name: deck.name,
  hash: deck.hash,
  reconstructed: isReconstructed(deck),
});

/** Every built-in version of the default deck, the default (newest) first. */
export const BUILT_IN: readonly DeckInfo[] = BUILT_IN_DECKS.map(deckInfoOf);

/** A match names a deck this server does not have: it is never played with another instead. */
export class UnknownDeckError extends Error {
  override name = 'UnknownDeckError';
  constructor(deck: DeckInfo) {
    super(
      `deck '${deck.id}' version ${deck.version} (hash ${deck.hash}) is not a built-in deck of this server`,
    );
  }
}

/** What of a match record names its deck. */
export interface MatchDeck {
  deck: DeckInfo;
  setupData: unknown;
}

/** The file of the built-in deck a match record names by hash. */
function builtInFileOf(deck: DeckInfo): DeckFile {
  const builtIn = builtInDeck(deck.hash);
  if (!builtIn) throw new UnknownDeckError(deck);
  return deckFileOf(builtIn);
}

/**
 * The setupData a match is played with. An uploaded deck travels in the stored setupData; a
 * built-in one is named only by the match record's deck hash and is filled in here, so that a
 * match keeps the version it was created with, whatever the default is today.
 */
export function setupDataOf(match: MatchDeck): Record<string, unknown> {
  const setupData = match.setupData as Record<string, unknown>;
  // Without a deck the engine deals from its default: that deck needs no filling in.
  if (setupData.deck !== undefined || match.deck.hash === DEFAULT_DECK.hash) return setupData;
  return { ...setupData, deck: builtInFileOf(match.deck) };
}

/** The deck file a match was dealt from, for its replay record. */
export function deckFileOfMatch(match: MatchDeck): unknown {
  return (match.setupData as { deck?: unknown }).deck ?? builtInFileOf(match.deck);
}
