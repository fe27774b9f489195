import { HIDDEN_CARD, otherSeat, type Seat, type State, viewFor } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { chooseMove, STRATEGIES } from '../src/index.ts';
import { RULES, randomPositions, redealHidden } from './support.ts';

// Positions across whole games: the choice of first player, both rounds, and round 2
// where the opponent's aftermath card is hidden too.
const POSITIONS = ['a', 'b', 'c'].flatMap((seed) => randomPositions(`hidden-${seed}`, 9));

/** The hidden cards of the opponent dealt differently, when there is more than one way. */
function redealt(state: State, seat: Seat, i: number): State | null {
  for (let attempt = 0; attempt < 20; attempt++) {
    const copy = redealHidden(state, seat, `redeal-${i}-${attempt}`);
    const o = otherSeat(seat);
    if (
      JSON.stringify([copy.hands[o], copy.reserve, copy.aftermath[o]]) !==
      JSON.stringify([state.hands[o], state.reserve, state.aftermath[o]])
    )
      return copy;
  }
  return null;
}

describe('a bot sees only its seat', () => {
  it('has positions with hidden cards to test, in both rounds', () => {
    expect(POSITIONS.length).toBeGreaterThanOrEqual(12);
    expect(POSITIONS.some((s) => s.round === 2 && s.aftermath['0'] !== null)).toBe(true);
  });

  for (const strategy of STRATEGIES) {
    it(`${strategy}: the full state, the view and a re-dealt full state give the same move`, () => {
      let redeals = 0;
      for (const [i, state] of POSITIONS.entries()) {
        const seat = state.decision?.seat ?? '0';
        const options = { seed: `same-${i}`, iterations: 20, timeMs: 60_000 };
        const fromView = chooseMove(RULES, viewFor(state, seat), seat, strategy, options);
        expect(chooseMove(RULES, state, seat, strategy, options)).toEqual(fromView);
        const other = redealt(state, seat, i);
        if (!other) continue;
        redeals += 1;
        expect(chooseMove(RULES, other, seat, strategy, options)).toEqual(fromView);
      }
      expect(redeals).toBeGreaterThanOrEqual(10);
    });
  }

  it('leaves the state it is given untouched', () => {
    const state = POSITIONS[4] as State;
    const seat = state.decision?.seat ?? '0';
    const before = structuredClone(state);
    chooseMove(RULES, state, seat, 'hard', { seed: 1, iterations: 40 });
    expect(state).toEqual(before);
  });

  it('the view it searches hides the opponent hand and the reserve', () => {
    const state = POSITIONS[2] as State;
    const seat = state.decision?.seat ?? '0';
    const view = viewFor(state, seat);
    expect(view.hands[otherSeat(seat)].every((c) => c === HIDDEN_CARD)).toBe(true);
    expect(view.reserve.every((c) => c === HIDDEN_CARD)).toBe(true);
  });
});
