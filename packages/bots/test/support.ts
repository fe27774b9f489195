import {
  applyMove,
  DEFAULT_DECK,
  HIDDEN_CARD,
  legalMoves,
  otherSeat,
  type RulesContext,
  type Seat,
  STANDARD_VARIANTS,
  type State,
} from '@iron-curtain/game';
import { createRng, newGame } from '../src/index.ts';

/** The default deck, standard edition: what newGame deals. */
export const RULES: RulesContext = { deck: DEFAULT_DECK, variants: STANDARD_VARIANTS };

/** Snapshots of a game dealt from `seed` and played at random: every `every`-th decision until it ends. */
export function randomPositions(seed: string, every: number): State[] {
  const { state } = newGame(seed, 'US');
  const rng = createRng(`positions:${seed}`);
  const positions: State[] = [];
  for (let i = 0; state.decision && !state.result; i++) {
    if (i % every === 0) positions.push(structuredClone(state));
    const seat = state.decision.seat;
    const move = rng.pick(legalMoves(RULES, state, seat));
    const outcome = applyMove(RULES, state, seat, move.move, move.args);
    if (!outcome.ok) throw new Error(outcome.error);
  }
  return positions;
}

/**
 * The full state with the cards `seat` cannot see dealt differently: the
 * opponent's hand, the reserve and the opponent's aftermath card swapped around.
 */
export function redealHidden(state: State, seat: Seat, seed: string): State {
  const copy = structuredClone(state);
  const opponent = otherSeat(seat);
  const hiddenAftermath = copy.aftermath[opponent] !== null && copy.finalScoring === null;
  const pool = [...copy.hands[opponent], ...copy.reserve];
  if (hiddenAftermath) pool.push(copy.aftermath[opponent] as string);
  createRng(seed).shuffle(pool);
  copy.hands[opponent] = pool.splice(0, copy.hands[opponent].length);
  copy.reserve = pool.splice(0, copy.reserve.length);
  if (hiddenAftermath) copy.aftermath[opponent] = pool.pop() ?? HIDDEN_CARD;
  return copy;
}
