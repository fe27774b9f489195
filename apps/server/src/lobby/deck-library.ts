import {
  canonicalJson,
  DEFAULT_DECK,
  type Deck,
  DeckError,
  deckFileSchema,
  loadDeck,
} from '@iron-curtain/game';
import { plainTextProblem } from '@iron-curtain/protocol';
import { BUILT_IN, deckInfoOf } from '../decks/built-in-decks.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import type { TimeSource } from '../ops/time.ts';
import type { DeckInfo, DeckStore } from '../storage/index.ts';

/** A deck a match can be dealt from: what it is, and its file when it was uploaded. */
export interface ChosenDeck {
  info: DeckInfo;
  /** setupData.deck; undefined for a built-in deck (the match record names it by hash). */
  file: unknown;
}

/**
 * The decks this server deals: every built-in version of the default deck and those owners of
 * the game uploaded (validated by the engine's loadDeck, keyed by the sha256 of their
 * canonical JSON).
 */
export class DeckLibrary {
  constructor(
    private readonly decks: DeckStore,
    private readonly time: TimeSource,
  ) {}

  async list(): Promise<DeckInfo[]> {
    const uploaded = await this.decks.listDecks();
    return [...BUILT_IN, ...uploaded.map((d) => d.info)];
  }

  /**
   * The default deck (its newest version) by its id or when none is asked for; any built-in
   * version, or an uploaded deck, by hash.
   */
  async choose(deckId: string | undefined): Promise<ChosenDeck> {
    if (deckId === undefined || deckId === DEFAULT_DECK.id) {
      return { info: BUILT_IN[0] as DeckInfo, file: undefined };
    }
    const builtIn = BUILT_IN.find((d) => d.hash === deckId);
    if (builtIn) return { info: builtIn, file: undefined };
    const stored = /^[0-9a-f]{64}$/.test(deckId) ? await this.decks.getDeck(deckId) : undefined;
    if (!stored) throw new LobbyError(400, 'UNKNOWN_DECK', `no deck '${deckId}' here`);
    return { info: stored.info, file: stored.file };
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
    // What /api/decks lists to every visitor is plain text, by the rule for player names.
    const unplain = (['id', 'version', 'name'] as const).filter((field) =>
      plainTextProblem(deck[field]),
    );
    if (unplain.length > 0) {
      throw new LobbyError(
        400,
        'BAD_DECK',
        'the deck file has errors',
        unplain.map((path) => ({
          path,
          message: 'plain text only: no control characters, markup or piled-up accents, not blank',
        })),
      );
    }
    const file = deckFileSchema.parse(json);
    const canonical = canonicalJson(file);
    const info = deckInfoOf(deck);
    const created = await this.decks.saveDeck({
      info,
      file: JSON.parse(canonical),
      createdAt: new Date(this.time.now()).toISOString(),
    });
    return { info, created };
  }
}
