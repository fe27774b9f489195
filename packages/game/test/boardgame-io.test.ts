import type { Game } from 'boardgame.io';
import {
  CreateGameReducer,
  getFilterPlayerView,
  InitializeGame,
  ProcessGameConfig,
} from 'boardgame.io/internal';
import { describe, expect, test } from 'vitest';
import { HIDDEN_CARD, ironCurtain, legalMoves, type Seat, type State } from '../src/index.ts';
import { deckOrderDeal, STANDARD_RULES } from './support.ts';

const IronCurtain = ironCurtain(STANDARD_RULES);

type BgioState = ReturnType<typeof InitializeGame>;
const sides = { '0': 'US', '1': 'USSR' } as const;

function start(seed: string, setupData: object = { sides }) {
  const game = { ...IronCurtain, seed };
  return {
    game,
    reducer: CreateGameReducer({ game }),
    state: InitializeGame({ game, numPlayers: 2, setupData }),
  };
}

const makeMove = (type: string, args: unknown[], playerID: string) => ({
  type: 'MAKE_MOVE' as const,
  payload: { type, args, playerID },
});

/** Plays the first legal move of whoever decides until the game ends, yielding every state. */
function* firstMoveGame(seed: string): Generator<BgioState> {
  const { reducer } = start(seed);
  let { state } = start(seed);
  yield state;
  while (!state.ctx.gameover) {
    const G = state.G as State;
    const seat = G.decision?.seat as Seat;
    const [move] = legalMoves(STANDARD_RULES, G, seat);
    if (!move) throw new Error('no legal move');
    state = reducer(state, makeMove(move.move, move.args, seat));
    yield state;
  }
}

describe('the boardgame.io Game', () => {
  test('deals from the match seed: the same seed, the same deal; other seeds, other deals', () => {
    const hands = (seed: string) => (start(seed).state.G as State).hands;
    expect(hands('seed-a')).toEqual(hands('seed-a'));
    const deals = new Set(['a', 'b', 'c', 'd', 'e'].map((s) => JSON.stringify(hands(`seed-${s}`))));
    expect(deals.size).toBe(5);
  });

  test('a fixed deal is used as given', () => {
    const { state } = start('any', { sides, deal: deckOrderDeal() });
    expect((state.G as State).hands['0']).toEqual(deckOrderDeal()['0']);
  });

  test("the decider is always boardgame.io's current player, with no stages", () => {
    let steps = 0;
    for (const state of firstMoveGame('stages')) {
      const G = state.G as State;
      if (state.ctx.gameover) {
        expect(state.ctx.gameover).toMatchObject({
          winnerSide: G.result?.winnerSide,
          reason: G.result?.reason,
        });
        expect(state.ctx.gameover.winner).toBe(G.sides['0'] === G.result?.winnerSide ? '0' : '1');
        break;
      }
      expect(state.ctx.currentPlayer).toBe(G.decision?.seat);
      expect(state.ctx.activePlayers).toBeNull();
      steps++;
    }
    expect(steps).toBeGreaterThan(16);
  });

  test('a state stored while decisions were stages of the turn plays on', () => {
    const { reducer, state: dealt } = start('stored-with-stages');
    // As the Game stored it then: the turn's seat current, the decider active in its stage.
    const toStages = (state: BgioState): BgioState => {
      const d = (state.G as State).decision;
      if (!d) throw new Error('no decision');
      return {
        ...state,
        ctx: {
          ...state.ctx,
          currentPlayer: d.seat === '0' ? '1' : '0',
          activePlayers: { [d.seat]: d.kind },
        },
      };
    };
    let state = toStages(dealt);
    for (let n = 0; n < 30 && !state.ctx.gameover; n++) {
      const G = state.G as State;
      const seat = G.decision?.seat as Seat;
      const [move] = legalMoves(STANDARD_RULES, G, seat);
      if (!move) throw new Error('no legal move');
      const after = reducer(state, makeMove(move.move, move.args, seat));
      expect(after._stateID).toBe(state._stateID + 1);
      expect(after.ctx.activePlayers).toBeNull();
      expect(after.ctx.currentPlayer).toBe((after.G as State).decision?.seat);
      // Every few moves, a stored state of the old shape again.
      state = n % 5 === 4 && !after.ctx.gameover ? toStages(after) : after;
    }
  });

  test('a refused move changes nothing; a move by the wrong seat changes nothing', () => {
    const { reducer, state } = start('refusals');
    const G = state.G as State;
    const decider = G.decision?.seat as Seat;
    const other = decider === '0' ? '1' : '0';
    for (const action of [
      makeMove('chooseFirstPlayer', ['NATO'], decider),
      makeMove('chooseFirstPlayer', ['US'], other),
      makeMove('playCard', ['poland', { x: 1, y: 0 }], decider),
      makeMove('noSuchMove', [], decider),
    ]) {
      const after = reducer(state, action);
      expect(after._stateID).toBe(state._stateID);
      expect(after.G).toEqual(state.G);
    }
  });

  test('every move logs its public entries as metadata; no move argument is secret', () => {
    const states = [...firstMoveGame('log')];
    const entries = states
      .flatMap((s) => s.deltalog ?? [])
      .filter((e) => e.action.type === 'MAKE_MOVE');
    expect(entries.length).toBe(states.length - 1);
    for (const e of entries) {
      expect(e.metadata.entries.length).toBeGreaterThan(0);
      expect(e.redact).toBeFalsy();
    }
  });

  test('no view (seat or spectator) carries the seed, the PRNG state or a hidden card', () => {
    const seed = 'secret-seed-value-123';
    const game = ProcessGameConfig({ ...IronCurtain, seed } as Game);
    const filter = getFilterPlayerView(game);
    for (const state of firstMoveGame(seed)) {
      const full = state.G as State;
      for (const viewer of ['0', '1', null] as const) {
        const frame = filter(viewer, { type: 'update', args: ['match', state, []] } as never);
        const [, filtered] = frame.args as unknown as [string, BgioState];
        const text = JSON.stringify(filtered);
        expect(text).not.toContain(seed);
        expect(text).not.toContain('prngstate');
        expect(filtered.plugins.random?.data).toBeUndefined();
        const view = filtered.G as State;
        for (const seat of ['0', '1'] as const) {
          if (seat !== viewer) expect(view.hands[seat].every((c) => c === HIDDEN_CARD)).toBe(true);
          else expect(view.hands[seat]).toEqual(full.hands[seat]);
        }
        expect(view.reserve.every((c) => c === HIDDEN_CARD)).toBe(true);
      }
    }
  });
});
