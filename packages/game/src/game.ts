import type { Ctx, Game, LongFormMove } from 'boardgame.io';
import { applyMove } from './rules.ts';
import { createState, parseSetupData, type SetupData } from './setup.ts';
import { type State, seatOf, turnSeat } from './state.ts';
import {
  DECISION_MOVES,
  type DecisionKind,
  MOVE_NAMES,
  type MoveName,
  type Result,
  type Seat,
} from './types.ts';
import { viewFor } from './view.ts';

/** boardgame.io's marker for a refused move. */
export const INVALID_MOVE = 'INVALID_MOVE';

export interface Gameover extends Result {
  winner: Seat;
}

export const gameoverOf = (state: State): Gameover | undefined =>
  state.result ? { ...state.result, winner: seatOf(state, state.result.winnerSide) } : undefined;

/**
 * Every move runs the pure engine on boardgame.io's draft of G. The engine
 * validates before it changes anything, so a refusal leaves G untouched. Moves
 * run on the server only: a client's view lacks the hidden cards that a move
 * (the round-2 deal, for one) may need.
 */
function engineMove(name: MoveName): LongFormMove<State> {
  return {
    client: false,
    move: ({ G, playerID, log }, ...args: unknown[]) => {
      const outcome = applyMove(G, playerID, name, args);
      if (!outcome.ok) return INVALID_MOVE;
      log.setMetadata({ entries: outcome.log });
    },
  };
}

const moves = Object.fromEntries(MOVE_NAMES.map((name) => [name, engineMove(name)])) as Record<
  MoveName,
  LongFormMove<State>
>;

/** boardgame.io's current player: whose turn of the round it is, or who chooses the first player. */
const ctxSeat = (G: State): Seat => turnSeat(G) ?? G.decision?.seat ?? '0';

/** The decider is always the one active player, in the stage named after the decision. */
const activeDecider = (G: State) =>
  G.decision ? { value: { [G.decision.seat]: G.decision.kind } } : { value: {} };

const stages = Object.fromEntries(
  (Object.keys(DECISION_MOVES) as DecisionKind[]).map((kind) => [
    kind,
    { moves: Object.fromEntries(DECISION_MOVES[kind].map((name) => [name, moves[name]])) },
  ]),
);

export const IronCurtain: Game<State, Record<string, unknown>, SetupData> = {
  name: 'iron-curtain',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }, setupData) =>
    createState(parseSetupData(setupData), (cards) => random.Shuffle(cards)),
  validateSetupData: (setupData, numPlayers) => {
    if (numPlayers !== 2) return 'Iron Curtain is a game for exactly 2 players';
    try {
      parseSetupData(setupData);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  },
  turn: {
    order: {
      first: ({ G }) => Number(ctxSeat(G)),
      next: ({ G }) => Number(ctxSeat(G)),
    },
    onBegin: ({ G, events }) => events.setActivePlayers(activeDecider(G)),
    onMove: ({
      G,
      ctx,
      events,
    }: {
      G: State;
      ctx: Ctx;
      events: { endTurn: (a: { next: string }) => void; setActivePlayers: (a: object) => void };
    }) => {
      if (G.result) return;
      const seat = ctxSeat(G);
      if (seat !== ctx.currentPlayer) events.endTurn({ next: seat });
      else events.setActivePlayers(activeDecider(G));
    },
    stages,
  },
  endIf: ({ G }) => gameoverOf(G),
  playerView: ({ G, playerID }) => viewFor(G, playerID as Seat | null),
  // The flow is driven by the engine from the hooks above; clients may fire no event.
  events: {
    endGame: false,
    endPhase: false,
    setPhase: false,
    endTurn: false,
    pass: false,
    setActivePlayers: false,
    endStage: false,
    setStage: false,
  },
  // Undo would restore the random state too and let a player peek at a draw.
  disableUndo: true,
};
