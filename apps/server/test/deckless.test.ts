import { DEFAULT_DECK, type State } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { deckFileOf } from '../src/decks.ts';
import { initialState } from '../src/engine.ts';
import { stateJson, withDeck } from '../src/storage/deckless.ts';
import type { DeckInfo, StoredState } from '../src/storage/store.ts';

const info = (hash: string): DeckInfo => ({
  id: 'd',
  version: '1',
  name: 'Deck',
  hash,
  reconstructed: true,
});

describe('states are stored without their deck', () => {
  it('leaves G.deck out of the stored JSON and puts the match deck back on load', () => {
    const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };
    const state = initialState(setupData, 'seed');
    const stored = JSON.parse(stateJson(state)) as StoredState;
    expect((stored.G as Partial<State>).deck).toBeUndefined();
    expect(withDeck(stored, info('built-in'), setupData)).toEqual(state);
  });

  it("re-attaches an uploaded deck from the match's setup data", () => {
    const file = { ...deckFileOf(DEFAULT_DECK), id: 'uploaded', name: 'Uploaded' };
    const setupData = { sides: { '0': 'USSR', '1': 'US' } as const, deck: file };
    const state = initialState(setupData, 'seed');
    const loaded = withDeck(JSON.parse(stateJson(state)), info('uploaded-hash'), setupData);
    expect((loaded.G as State).deck.id).toBe('uploaded');
    expect(loaded).toEqual(state);
  });

  it('loads a state stored with its deck as it was', () => {
    const setupData = { sides: { '0': 'US', '1': 'USSR' } as const };
    const state = initialState(setupData, 'seed');
    const old = JSON.parse(JSON.stringify(state)) as StoredState;
    expect(withDeck(old, info('other'), { sides: { '0': 'US', '1': 'USSR' } })).toBe(old);
  });
});
