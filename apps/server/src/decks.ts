import { createHash } from 'node:crypto';
import {
  DEFAULT_DECK,
  type Deck,
  DeckError,
  type DeckFile,
  deckFileSchema,
  isReconstructed,
  loadDeck,
} from '@iron-curtain/game';
import { LobbyError } from './matches.ts';
import type { DeckInfo, Store } from './storage/index.ts';

/** JSON with object keys sorted: the same deck always hashes the same, however it was written. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The deck file a loaded deck came from (events as written, no parsed effects). */
export function deckFileOf(deck: Deck): DeckFile {
  return {
    id: deck.id,
    version: deck.version,
    name: deck.name,
    regions: deck.regions,
    starter: deck.starter,
    cards: deck.cards.map(({ eventText, effects: _, ...card }) => ({ ...card, event: eventText })),
  };
}

const infoOf = (deck: Deck, hash: string): DeckInfo => ({
  id: deck.id,
  version: deck.version,
  name: deck.name,
  hash,
  reconstructed: isReconstructed(deck),
});

/** The built-in default deck, described as before uploads existed (hash of the loaded deck). */
const BUILT_IN: { info: DeckInfo; file: DeckFile } = {
  info: infoOf(
    DEFAULT_DECK,
    createHash('sha256').update(JSON.stringify(DEFAULT_DECK)).digest('hex'),
  ),
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
    const hash = createHash('sha256').update(canonical).digest('hex');
    const info = infoOf(deck, hash);
    const created = await this.store.saveDeck({
      info,
      file: JSON.parse(canonical),
      createdAt: new Date().toISOString(),
    });
    return { info, created };
  }
}
