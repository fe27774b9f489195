import {
  type FullState,
  type GameReducer,
  type IronCurtainGame,
  ironCurtainFor,
  stepMove,
} from '@iron-curtain/game';
import { CreateGameReducer } from 'boardgame.io/internal';
import { setupDataOf } from '../../decks/built-in-decks.ts';
import type { MatchRecord, MoveRecord, StoredState } from './match-store.ts';

/** One reducer per Game (a Game is made once per rules context), made at its first replay. */
const reducers = new WeakMap<IronCurtainGame, GameReducer>();

/**
 * The state after a match's next `moves` (in order, each on the state before it), replayed
 * through boardgame.io's reducer: the state holds the PRNG's, so each move gives the state it
 * gave when it was made.
 */
export function replayMoves(
  match: Pick<MatchRecord, 'deck' | 'setupData'>,
  state: StoredState,
  moves: MoveRecord[],
): StoredState {
  const { game } = ironCurtainFor(setupDataOf(match));
  let reduce = reducers.get(game);
  if (!reduce) {
    reduce = CreateGameReducer({ game });
    reducers.set(game, reduce);
  }
  let at = state;
  for (const move of moves) {
    const step = stepMove(game, reduce, at as FullState, move);
    if (!step.ok) throw new Error(`stored move ${move.stateID} does not replay: ${step.reason}`);
    // As the engine stores a move's state: without what boardgame.io keeps for one action.
    const {
      deltalog: _,
      transients: __,
      ...next
    } = step.full as FullState & { transients?: unknown };
    at = next;
  }
  return at;
}
