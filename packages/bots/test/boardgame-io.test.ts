import { ironCurtain, type Seat, type State } from '@iron-curtain/game';
import { updateRequestSchema } from '@iron-curtain/protocol';
import type { Ctx } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { describe, expect, it } from 'vitest';
import { chooseDraftedMove, chooseMove, type Strategy } from '../src/index.ts';
import { RULES } from './support.ts';

const IronCurtain = ironCurtain(RULES);

/** A match as the server runs it: boardgame.io's reducer, each seat seeing the Game's playerView. */
function playThroughBoardgameIo(
  seed: string,
  levels: Record<Seat, Strategy>,
  choose: typeof chooseMove = chooseMove,
) {
  const game = { ...IronCurtain, seed };
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({
    game,
    numPlayers: 2,
    setupData: { sides: { '0': 'US', '1': 'USSR' } },
  });
  const playerView = IronCurtain.playerView as (a: {
    G: State;
    ctx: Ctx;
    playerID: string;
  }) => State;
  let moves = 0;
  const names: string[] = [];
  while (!state.ctx.gameover) {
    const seat = (state.G as State).decision?.seat as Seat;
    const view = playerView({ G: state.G as State, ctx: state.ctx, playerID: seat });
    const move = choose(RULES, view, seat, levels[seat], {
      seed: `${seed}:${moves}`,
      iterations: 20,
    });
    // What the socket layer would accept from a client for this seat.
    const request = updateRequestSchema.safeParse({
      matchID: 'bot-match-1',
      stateID: state._stateID,
      action: { type: 'MAKE_MOVE', payload: { type: move.move, args: move.args, playerID: seat } },
    });
    const before = state._stateID;
    state = reducer(state, {
      type: 'MAKE_MOVE',
      payload: { type: move.move, args: move.args, playerID: seat },
    });
    expect({ request: request.success, accepted: state._stateID === before + 1 }).toEqual({
      request: true,
      accepted: true,
    });
    moves += 1;
    names.push(move.move);
  }
  return { gameover: state.ctx.gameover as { winner: Seat }, moves, names };
}

describe('bots through boardgame.io', () => {
  it('hard and medium play a whole match from the playerView, every move accepted', () => {
    const { gameover, moves } = playThroughBoardgameIo('bgio-1', { '0': 'hard', '1': 'medium' });
    expect(['0', '1']).toContain(gameover.winner);
    expect(moves).toBeGreaterThan(10);
  });

  it('easy and greedy too', () => {
    const { gameover } = playThroughBoardgameIo('bgio-2', { '0': 'easy', '1': 'greedy' });
    expect(['0', '1']).toContain(gameover.winner);
  });

  it('a bot sending drafted moves confirms each placement step as one placeCubes move, every one accepted', () => {
    for (const levels of [
      { '0': 'medium', '1': 'easy' },
      { '0': 'hard', '1': 'random' },
    ] as Record<Seat, Strategy>[]) {
      const { gameover, names } = playThroughBoardgameIo('bgio-3', levels, chooseDraftedMove);
      expect(['0', '1']).toContain(gameover.winner);
      expect(names).not.toContain('placeCube');
      expect(names.filter((n) => n === 'placeCubes').length).toBeGreaterThan(3);
    }
  });
});
