import { DEFAULT_DECK, deckFileOf, type State } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { initialState } from '../src/engine.ts';
import { upgradeState } from '../src/storage/legacy-state.ts';
import type { StoredState } from '../src/storage/store.ts';

const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };

/** A state as this server stored it before the deck left the state: the whole deck in G. */
function storedWithDeck(state: StoredState): StoredState {
  const G = state.G as State;
  return {
    ...state,
    G: { ...G, deck: DEFAULT_DECK, variants: { aftermathCap: 3, finalScoringOrder: 'standard' } },
  };
}

describe('states stored before the rules context left the state', () => {
  it('a state stored with the whole deck in G loads naming the deck by hash', () => {
    const state = initialState(setupData, 'seed');
    const loaded = upgradeState(JSON.parse(JSON.stringify(storedWithDeck(state))), setupData);
    expect(loaded).toEqual(state);
    expect((loaded.G as State).deck).toEqual({
      id: DEFAULT_DECK.id,
      version: DEFAULT_DECK.version,
      hash: DEFAULT_DECK.hash,
    });
  });

  it('a state stored without its deck (but with its variants) names its uploaded deck', () => {
    const file = { ...deckFileOf(DEFAULT_DECK), id: 'uploaded', name: 'Uploaded' };
    const uploaded = { sides: { '0': 'USSR', '1': 'US' } as const, deck: file };
    const state = initialState(uploaded, 'seed');
    const { deck: _, ...withoutDeck } = storedWithDeck(state).G as State;
    const loaded = upgradeState({ ...state, G: withoutDeck }, uploaded);
    expect((loaded.G as State).deck.id).toBe('uploaded');
    expect(loaded).toEqual(state);
  });

  it("today's states come back as they are, and carry no card data", () => {
    const state = initialState(setupData, 'seed');
    expect(upgradeState(state, setupData)).toBe(state);
    const json = JSON.stringify(state);
    expect(json).not.toContain('eventText');
    expect(Buffer.byteLength(json)).toBeLessThan(2_000);
  });
});
