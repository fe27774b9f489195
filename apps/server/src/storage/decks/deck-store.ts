import type { DeckInfo } from '@iron-curtain/protocol';

/** A deck file an owner of the game uploaded, keyed by the sha256 of its canonical JSON. */
export interface StoredDeck {
  info: DeckInfo;
  /** The deck file as validated (canonical JSON). */
  file: unknown;
  createdAt: string;
}

/** Uploaded deck files, by hash. */
export interface DeckStore {
  /** Stores an uploaded deck; false when a deck with that hash is already there. */
  saveDeck(deck: StoredDeck): Promise<boolean>;
  getDeck(hash: string): Promise<StoredDeck | undefined>;
  /** Uploaded decks, oldest first. */
  listDecks(): Promise<StoredDeck[]>;
}
