import { deckRef, ironCurtainFor, type State } from '@iron-curtain/game';
import { setupDataOf } from '../../decks/built-in-decks.ts';
import type { MatchRecord, StoredState } from './match-store.ts';

/** A state as stored before the deck and variants left it: G.deck the whole deck, or absent. */
interface LegacyG extends Omit<State, 'deck'> {
  deck?: State['deck'] | { cards: unknown[] };
  variants?: unknown;
}

/**
 * A stored state in today's shape: states stored before the rules context left the state
 * (with the whole deck in G, or without it but with the variants) name their match's deck by
 * reference instead. Today's states come back as they are.
 */
export function upgradeState(
  state: StoredState,
  match: Pick<MatchRecord, 'deck' | 'setupData'>,
): StoredState {
  const G = state.G as LegacyG;
  if (G.deck !== undefined && !('cards' in G.deck) && G.variants === undefined) return state;
  const { variants: _, deck: __, ...rest } = G;
  const { rules } = ironCurtainFor(setupDataOf(match));
  return { ...state, G: { ...rest, deck: deckRef(rules.deck) } };
}
