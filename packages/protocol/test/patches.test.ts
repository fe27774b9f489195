import {
  applyMove,
  createState,
  legalMoves,
  parseSetupData,
  rulesOf,
  type Seat,
  type State,
  viewFor,
} from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import { applyUpdate, type StateFrame, viewPatch } from '../src/index.ts';

/** A small seeded generator (mulberry32), so a failing game can be played again. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Every state of a random game, from the deal to its end. */
function randomGame(seed: number): State[] {
  const random = seeded(seed);
  const setup = parseSetupData({ sides: { '0': 'US', '1': 'USSR' } });
  const rules = rulesOf(setup);
  const state = createState(setup, (cards) => {
    for (let i = cards.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [cards[i], cards[j]] = [cards[j] as string, cards[i] as string];
    }
    return cards;
  });
  const states = [structuredClone(state)];
  while (state.decision) {
    const seat = state.decision.seat;
    const moves = legalMoves(rules, state, seat);
    const move = moves[Math.floor(random() * moves.length)];
    if (!move || !applyMove(rules, state, seat, move.move, move.args).ok) throw new Error('stuck');
    states.push(structuredClone(state));
  }
  return states;
}

describe('updates as patches on the view', () => {
  it('turn every view of every state of 10 random games into the next one exactly', () => {
    let checked = 0;
    for (let game = 0; game < 10; game++) {
      const states = randomGame(game);
      for (let i = 1; i < states.length; i++) {
        for (const viewer of ['0', '1', null] as (Seat | null)[]) {
          const before = viewFor(states[i - 1] as State, viewer);
          const after = viewFor(states[i] as State, viewer);
          const frame: StateFrame = { G: structuredClone(before), stateID: i - 1 };
          const update = {
            matchID: 'patchTest0001',
            from: i - 1,
            stateID: i,
            patch: viewPatch(before, after),
            entries: [],
          };
          expect(applyUpdate(frame, update)).toEqual({ G: after, stateID: i });
          // The frame a client holds is never changed in place.
          expect(frame.G).toEqual(before);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(10 * 3 * 40);
  });

  it('do not apply to another state, or where the patch does not fit', () => {
    const [first, second] = randomGame(99) as [State, State];
    const frame: StateFrame = { G: viewFor(first, '0'), stateID: 3 };
    const patch = viewPatch(viewFor(first, '0'), viewFor(second, '0'));
    const update = { matchID: 'patchTest0001', from: 2, stateID: 4, patch, entries: [] };
    expect(applyUpdate(frame, update)).toBeNull();
    const misfit = [{ op: 'remove' as const, path: '/no/such/field' }];
    expect(applyUpdate(frame, { ...update, from: 3, patch: misfit })).toBeNull();
  });
});
