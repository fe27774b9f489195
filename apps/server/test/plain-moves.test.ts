import { ironCurtainFor, legalMoves, type Seat, type State } from '@iron-curtain/game';
import type { State as BgioState } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { describe, expect, it } from 'vitest';
import { withPlainMoves } from '../src/reducer/plain-moves.ts';
import { prng } from './support.ts';

const setupData = { sides: { '0': 'US', '1': 'USSR' } } as const;
const { game, rules } = ironCurtainFor(setupData);
const asIs = CreateGameReducer({ game });
const onCopies = CreateGameReducer({ game: withPlainMoves(game) });

/** Paths where `after` holds a part equal to `before`'s but not `before`'s own object. */
function copiedButEqual(before: unknown, after: unknown, at = 'G'): string[] {
  if (before === after || typeof after !== 'object' || after === null) return [];
  if (typeof before !== 'object' || before === null) return [];
  if (JSON.stringify(before) === JSON.stringify(after)) return [at];
  const was = before as Record<string, unknown>;
  return Object.entries(after).flatMap(([key, part]) =>
    key in was ? copiedButEqual(was[key], part, `${at}.${key}`) : [],
  );
}

const makeMove = (seat: Seat, move: string, args: unknown[]) =>
  ({ type: 'MAKE_MOVE', payload: { type: move, args, playerID: seat } }) as const;

describe('the Game with its moves on plain copies of G and its hooks on the state', () => {
  it('give the Game’s own states and log entries, move for move, over whole games', () => {
    let moves = 0;
    for (let g = 0; g < 12; g++) {
      const random = prng(g);
      let a = InitializeGame({ game: { ...game, seed: `plain-${g}` }, numPlayers: 2, setupData });
      let b = a;
      while (!a.ctx.gameover) {
        const G = a.G as State;
        const seat = G.decision?.seat as Seat;
        const options = legalMoves(rules, G, seat);
        const pick = options[Math.floor(random() * options.length)];
        if (!pick) throw new Error('no legal move');
        const action = makeMove(seat, pick.move, pick.args);
        a = asIs(a as BgioState, action);
        b = onCopies(b as BgioState, action);
        expect(b).toEqual(a);
        moves += 1;
      }
    }
    expect(moves).toBeGreaterThan(12 * 20);
  });

  it('share what a move left alone with the state before it, and freeze what they store', () => {
    let state = InitializeGame({
      game: { ...game, seed: 'plain-share' },
      numPlayers: 2,
      setupData,
    });
    const random = prng(7);
    let shared = 0;
    for (let n = 0; n < 200 && !state.ctx.gameover; n++) {
      const G = state.G as State;
      const seat = G.decision?.seat as Seat;
      const options = legalMoves(rules, G, seat);
      const pick = options[Math.floor(random() * options.length)];
      if (!pick) throw new Error('no legal move');
      const next = onCopies(state as BgioState, makeMove(seat, pick.move, pick.args));
      const after = next.G as State;
      expect(after.sides).toBe(G.sides);
      // Every part the move left alone, at any depth, is the state before's own object.
      expect(copiedButEqual(G, after)).toEqual([]);
      if (after.reserve === G.reserve) shared += 1;
      expect(Object.isFrozen(after)).toBe(true);
      state = next;
    }
    expect(shared).toBeGreaterThan(0);
  });

  it('leave the state as it was when the Game refuses a move', () => {
    const state = InitializeGame({
      game: { ...game, seed: 'plain-refused' },
      numPlayers: 2,
      setupData,
    });
    const G = state.G as State;
    const seat = G.decision?.seat as Seat;
    const allowed = legalMoves(rules, G, seat)[0]?.move as string;
    // A move the stage allows, with arguments the engine refuses.
    const after = onCopies(state as BgioState, makeMove(seat, allowed, ['no-such-choice']));
    expect(after._stateID).toBe(state._stateID);
    expect(after.G).toBe(state.G);
  });
});
