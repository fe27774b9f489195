import {
  canonicalJson,
  DEFAULT_DECK,
  type Deck,
  DeckError,
  type DeckFile,
  deckFileOf,
  deckFileSchema,
  isReconstructed,
  loadDeck,
} from '@iron-curtain/game';
import { LobbyError } from './lobby-error.ts';
import type { DeckInfo, Store } from './storage/index.ts';

const infoOf = (deck: Deck): DeckInfo => ({
  id: deck.id,
  version: deck.version,
  name: deck.name,
  hash: deck.hash,
  reconstructed: isReconstructed(deck),
});

/** The built-in default deck. */
const BUILT_IN: { info: DeckInfo; file: DeckFile } = {
  info: infoOf(DEFAULT_DECK),
  file: deckFileOf(DEFAULT_DECK),
};

/** A deck a match can be dealt from: what it is, and its file when it is not the default. */
export interface ChosenDeck {
  info: DeckInfo;
  /** setupData.deck; undefined for the built-in deck (the engine's default). */
  file: unknown;
}

/**
 * The decks this server deals: the built-in default deck and those owners of the game
 * uploaded (validated by the engine's loadDeck, keyed by the sha256 of their canonical JSON).
 */
export class DeckLibrary {
  constructor(private readonly store: Store) {}

  async list(): Promise<DeckInfo[]> {
    const uploaded = await this.store.listDecks();
    return [BUILT_IN.info, ...uploaded.map((d) => d.info)];
  }

  /** A built-in deck by id, or an uploaded one by hash; the default deck when none is asked for. */
  async choose(deckId: string | undefined): Promise<ChosenDeck> {
    if (deckId === undefined || deckId === BUILT_IN.info.id || deckId === BUILT_IN.info.hash) {
      return { info: BUILT_IN.info, file: undefined };
    }
    const stored = /^[0-9a-f]{64}$/.test(deckId) ? await this.store.getDeck(deckId) : undefined;
    if (!stored) throw new LobbyError(400, 'UNKNOWN_DECK', `no deck '${deckId}' here`);
    return { info: stored.info, file: stored.file };
  }

  /** The deck file a match was dealt from, for its replay record. */
  async fileOf(setupDeck: unknown): Promise<unknown> {
    return setupDeck ?? BUILT_IN.file;
  }

  /** Validates and stores a deck file; a refused file names each bad field. */
  async upload(json: unknown): Promise<{ info: DeckInfo; created: boolean }> {
    let deck: Deck;
    try {
      deck = loadDeck(json);
    } catch (error) {
      if (!(error instanceof DeckError)) throw error;
      throw new LobbyError(400, 'BAD_DECK', 'the deck file has errors', error.issues);
    }
    const file = deckFileSchema.parse(json);
    const canonical = canonicalJson(file);
    const info = infoOf(deck);
    const created = await this.store.saveDeck({
      info,
      file: JSON.parse(canonical),
      createdAt: new Date().toISOString(),
    });
    return { info, created };
  }
}
