import { describe, expect, it } from 'vitest';
import { applyMove, eachSeatPlayedACard, legalMoves, type Seat } from '../src/index.ts';
import { newMatch, rulesFor } from './support.ts';

/** A small seeded PRNG (mulberry32): a failing playout can be played again. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('eachSeatPlayedACard (a rated match ending before it is aborted)', () => {
  it('turns true exactly once both seats have made a playCard move, and stays true', () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const random = prng(seed);
      const state = newMatch();
      const rules = rulesFor(state);
      const played = new Set<Seat>();
      expect(eachSeatPlayedACard(state)).toBe(false);
      for (let step = 0; step < 60 && !state.result; step++) {
        const seat = state.decision?.seat as Seat;
        const moves = legalMoves(rules, state, seat);
        const move = moves[Math.floor(random() * moves.length)];
        if (!move) throw new Error('no legal move');
        const outcome = applyMove(rules, state, seat, move.move, move.args);
        if (!outcome.ok) throw new Error(outcome.error);
        if (move.move === 'playCard') played.add(seat);
        expect(eachSeatPlayedACard(state), `seed ${seed}, step ${step}`).toBe(played.size === 2);
      }
      expect(played.size).toBe(2);
    }
  });
});
