import { type Deck, parseSetupData, type State } from '@iron-curtain/game';
import type { DeckInfo, StoredState } from './store.ts';

/** Decks by hash, as loaded: every state of every match dealt from one deck shares it. */
const decks = new Map<string, Deck>();

/**
 * A state as stored: without G.deck. The deck (7 kB of the 9 kB) never changes during a
 * match and the match record names it, so each move need not write it again.
 */
export function stateJson(state: StoredState): string {
  const { deck: _, ...G } = state.G as State;
  return JSON.stringify({ ...state, G });
}

/** A stored state with its match's deck back in G (states stored with their deck stay as they are). */
export function withDeck(state: StoredState, deck: DeckInfo, setupData: unknown): StoredState {
  const G = state.G as Partial<State>;
  if (G.deck !== undefined) return state;
  let known = decks.get(deck.hash);
  if (!known) {
    known = parseSetupData(setupData).deck;
    decks.set(deck.hash, known);
  }
  return { ...state, G: { ...G, deck: known } };
}
