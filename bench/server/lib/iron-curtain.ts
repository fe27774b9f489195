/**
 * The one place the server benchmarks reach into the rules engine for the Game and its
 * legal moves (the stock-ic server, the clients of every Iron Curtain target, the frame
 * sample), so that a change of the engine's API is a change here only.
 */
import { ironCurtainFor, legalMoves, type Seat, type State } from '@iron-curtain/game';

export type { Seat, State };

/** setupData of every benchmark match: seat '0' plays the US, the default deck. */
export const BENCH_SETUP_DATA = { sides: { '0': 'US', '1': 'USSR' } } as const;

/** Our boardgame.io Game and its rules context (the default deck), as the stock-ic server runs it. */
export const { game: IronCurtainGame, rules: BENCH_RULES } = ironCurtainFor(BENCH_SETUP_DATA);

export interface BenchMove {
  move: string;
  args: unknown[];
}

/** Every legal move of `seat` on a state or on that seat's view of it. */
export const legalMovesOf = (state: State, seat: Seat): BenchMove[] =>
  legalMoves(BENCH_RULES, state, seat);

/** A legal move of `seat` picked uniformly at random; undefined when it has none. */
export function randomLegalMove(state: State, seat: Seat): BenchMove | undefined {
  const options = legalMovesOf(state, seat);
  return options[Math.floor(Math.random() * options.length)];
}
