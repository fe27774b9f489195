import { type FullState, keptState, stepMove } from '@iron-curtain/game';
import type { MatchDeck } from '../../decks/built-in-decks.ts';
import { playedWith } from '../../reducer/played-with.ts';
import type { MoveRecord, StoredState } from './match-store.ts';

/**
 * The state after a match's next `moves` (in order, each on the state before it), replayed
 * through the reducer its moves were made with (playedWith): the state holds the PRNG's, so
 * each move gives the state it gave when it was made.
 */
export function replayMoves(
  match: MatchDeck,
  state: StoredState,
  moves: MoveRecord[],
): StoredState {
  const { game, reduce } = playedWith(match);
  let at = state;
  for (const move of moves) {
    const step = stepMove(game, reduce, at as FullState, move);
    if (!step.ok) throw new Error(`stored move ${move.stateID} does not replay: ${step.reason}`);
    at = keptState(step.full);
  }
  return at;
}
