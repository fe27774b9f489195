import {
  HIDDEN_CARD,
  indexDeck,
  legalMoves,
  otherSeat,
  type State,
  viewFor,
} from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import {
  BotError,
  candidateMoves,
  chooseMove,
  createRng,
  determinize,
  moveKey,
  newGame,
  unseenCards,
  wilson,
} from '../src/index.ts';
import { RULES, randomPositions } from './support.ts';

const POSITIONS = ['u1', 'u2'].flatMap((seed) => randomPositions(seed, 3));

describe('determinize', () => {
  it('deals exactly the unseen cards into the hidden slots and keeps the rest', () => {
    for (const [i, state] of POSITIONS.entries()) {
      const seat = state.decision?.seat ?? '0';
      const view = viewFor(state, seat);
      const dealt = determinize(RULES, view, seat, createRng(i));
      const o = otherSeat(seat);
      expect(dealt.hands[seat]).toEqual(state.hands[seat]);
      expect(dealt.table).toEqual(state.table);
      expect(dealt.aftermath[seat]).toEqual(state.aftermath[seat]);
      const hidden = [...dealt.hands[o], ...dealt.reserve];
      if (view.aftermath[o] === HIDDEN_CARD) hidden.push(dealt.aftermath[o] as string);
      expect(hidden).not.toContain(HIDDEN_CARD);
      expect([...hidden].sort()).toEqual(unseenCards(RULES, view, seat).sort());
      expect(view.hands[o].every((c) => c === HIDDEN_CARD)).toBe(true);
    }
  });

  it('every card of the deck is somewhere exactly once in a determinized state', () => {
    const state = POSITIONS[7] as State;
    const seat = state.decision?.seat ?? '0';
    const dealt = determinize(RULES, viewFor(state, seat), seat, createRng('all'));
    const cards = [
      ...dealt.hands['0'],
      ...dealt.hands['1'],
      ...dealt.reserve,
      ...dealt.table.map((p) => p.cardId),
      ...[dealt.aftermath['0'], dealt.aftermath['1']].filter((c) => c !== null),
    ].sort();
    expect(cards).toEqual([...indexDeck(RULES.deck).strategyCards, RULES.deck.starter].sort());
  });
});

describe('candidate moves', () => {
  it('are legal, never empty, and drop only early finishes and reordered cubes', () => {
    for (const state of POSITIONS) {
      const seat = state.decision?.seat ?? '0';
      const legal = legalMoves(RULES, state, seat).map(moveKey);
      const candidates = candidateMoves(RULES, state, seat).map(moveKey);
      expect(candidates.length).toBeGreaterThan(0);
      for (const key of candidates) expect(legal).toContain(key);
      for (const key of legal)
        if (!candidates.includes(key))
          expect(['finishStep', 'placeCube']).toContain(key.split(':')[0]);
    }
  });
});

describe('chooseMove refuses bad input clearly', () => {
  const { state } = newGame('errors', 'US');
  const seat = state.decision?.seat ?? '1';

  it('when it is not the seat’s decision', () => {
    expect(() => chooseMove(RULES, state, otherSeat(seat), 'easy')).toThrow(BotError);
    expect(() => chooseMove(RULES, state, otherSeat(seat), 'easy')).toThrow(/not seat/);
  });

  it('for an unknown level or seat', () => {
    expect(() => chooseMove(RULES, state, seat, 'brutal' as never)).toThrow(/unknown bot level/);
    expect(() => chooseMove(RULES, state, '2' as never, 'easy')).toThrow(/seat must be/);
  });

  it('for a view whose hidden cards do not add up', () => {
    const view = viewFor(state, seat);
    view.reserve.pop();
    expect(() => chooseMove(RULES, view, seat, 'easy')).toThrow(/inconsistent view/);
  });

  it('for a view with a card that is not in the deck', () => {
    const view = viewFor(state, seat);
    view.hands[seat][0] = 'atlantis';
    expect(() => chooseMove(RULES, view, seat, 'easy')).toThrow(BotError);
  });

  it('for options out of range', () => {
    expect(() => chooseMove(RULES, state, seat, 'hard', { iterations: 0 })).toThrow(/iterations/);
    expect(() => chooseMove(RULES, state, seat, 'hard', { timeMs: -1 })).toThrow(/timeMs/);
    expect(() => chooseMove(RULES, state, seat, 'hard', { seed: {} as never })).toThrow(/seed/);
  });

  it('for a finished game', () => {
    const over: State = { ...state, result: { winnerSide: 'US', reason: 'track' }, decision: null };
    expect(() => chooseMove(RULES, over, seat, 'easy')).toThrow(/game is over/);
  });
});

describe('seeded randomness', () => {
  it('repeats from the same seed and differs between seeds', () => {
    const a = createRng('x');
    const b = createRng('x');
    const c = createRng('y');
    const draws = (r: typeof a) => Array.from({ length: 8 }, () => r.int(1000));
    const first = draws(a);
    expect(draws(b)).toEqual(first);
    expect(draws(c)).not.toEqual(first);
  });

  it('shuffles into a permutation', () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    const shuffled = createRng(5).shuffle([...items]);
    expect(shuffled).not.toEqual(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
  });

  it('the same view and seed give the same move; the seed changes the tie-breaks', () => {
    const state = POSITIONS[3] as State;
    const seat = state.decision?.seat ?? '0';
    const moves = Array.from({ length: 12 }, (_, i) =>
      moveKey(chooseMove(RULES, state, seat, 'random', { seed: i })),
    );
    expect(moveKey(chooseMove(RULES, state, seat, 'random', { seed: 3 }))).toBe(moves[3]);
    expect(new Set(moves).size).toBeGreaterThan(1);
  });
});

describe('wilson interval', () => {
  it('matches known values', () => {
    const half = wilson(50, 100);
    expect(half.share).toBe(0.5);
    expect(half.low).toBeCloseTo(0.4038, 3);
    expect(half.high).toBeCloseTo(0.5962, 3);
    const all = wilson(20, 20);
    expect(all.high).toBe(1);
    expect(all.low).toBeCloseTo(0.8389, 3);
  });
});
