import { DEFAULT_DECK, type Deck, deckFileOf, deckRef, type State } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { initialState } from '../src/match/engine.ts';
import type { StoredState } from '../src/storage/index.ts';
import { upgradeState } from '../src/storage/matches/legacy-state.ts';
import { DECK_VERSION_1, deckInfoOf } from './support.ts';

const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };
const matchOf = (deck: Deck, data: unknown = setupData) => ({
  deck: deckInfoOf(deck),
  setupData: data,
  seed: 'seed',
});

/** A state as this server stored it before the deck left the state: the whole deck in G. */
function storedWithDeck(state: StoredState, deck: Deck = DEFAULT_DECK): StoredState {
  const G = state.G as State;
  return {
    ...state,
    G: { ...G, deck, variants: { aftermathCap: 3, finalScoringOrder: 'standard' } },
  };
}

describe('states stored before the rules context left the state', () => {
  it('a state stored with the whole deck in G loads naming the deck by hash', () => {
    const match = matchOf(DEFAULT_DECK);
    const state = initialState(match);
    const loaded = upgradeState(JSON.parse(JSON.stringify(storedWithDeck(state))), match);
    expect(loaded).toEqual(state);
    expect((loaded.G as State).deck).toEqual(deckRef(DEFAULT_DECK));
  });

  it('a state stored with deck version 1 in G still names version 1 after the default became version 2', () => {
    const match = matchOf(DECK_VERSION_1);
    const state = initialState(match);
    expect((state.G as State).deck).toEqual(deckRef(DECK_VERSION_1));
    const stored = JSON.parse(JSON.stringify(storedWithDeck(state, DECK_VERSION_1)));
    const loaded = upgradeState(stored, match);
    expect((loaded.G as State).deck).toEqual(deckRef(DECK_VERSION_1));
    expect(loaded).toEqual(state);
  });

  it('a state stored without its deck (but with its variants) names its uploaded deck', () => {
    const file = { ...deckFileOf(DEFAULT_DECK), id: 'uploaded', name: 'Uploaded' };
    const uploaded = { sides: { '0': 'USSR', '1': 'US' } as const, deck: file };
    const match = {
      ...matchOf(DEFAULT_DECK, uploaded),
      deck: { ...deckInfoOf(DEFAULT_DECK), id: 'uploaded' },
    };
    const state = initialState(match);
    const { deck: _, ...withoutDeck } = storedWithDeck(state).G as State;
    const loaded = upgradeState({ ...state, G: withoutDeck }, match);
    expect((loaded.G as State).deck.id).toBe('uploaded');
    expect(loaded).toEqual(state);
  });

  it('a legacy state of a match naming an unknown deck hash is refused, not dealt another deck', () => {
    const state = initialState(matchOf(DEFAULT_DECK));
    const unknown = {
      ...matchOf(DEFAULT_DECK),
      deck: { ...deckInfoOf(DEFAULT_DECK), hash: 'f'.repeat(64) },
    };
    expect(() => upgradeState(storedWithDeck(state), unknown)).toThrow(
      /deck 'reconstructed' version 2 \(hash f{64}\) is not a built-in deck of this server/,
    );
  });

  it("today's states come back as they are, and carry no card data", () => {
    const match = matchOf(DEFAULT_DECK);
    const state = initialState(match);
    expect(upgradeState(state, match)).toBe(state);
    const json = JSON.stringify(state);
    expect(json).not.toContain('eventText');
    expect(Buffer.byteLength(json)).toBeLessThan(2_000);
  });
});
