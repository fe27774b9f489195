import type { LogEntry as BgioLogEntry, State as BgioState, Ctx } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { type Gameover, type IronCurtainGame, refusalOf } from './game.ts';
import type { LogEntry, MoveName, Seat } from './types.ts';

/** boardgame.io's full state of a match (G, ctx, plugins with the PRNG, the state id). */
export type FullState = ReturnType<typeof InitializeGame>;
/** boardgame.io's reducer for one Game. */
export type GameReducer = ReturnType<typeof CreateGameReducer>;
/** A state as it is kept between moves: without what boardgame.io keeps for one action. */
export type KeptState = Omit<FullState, 'deltalog'>;

/**
 * boardgame.io's reducer for `game`, the one way one is made: the server's moves, its replay of
 * stored moves and a saved match's replay all step through a reducer made here (see stepMove).
 * Making one costs as much as many moves: whoever steps a match more than once keeps it.
 */
export function reducerFor(game: IronCurtainGame): GameReducer {
  return CreateGameReducer({ game });
}

/**
 * `full` as it is kept between moves: without the deltalog and the transients (an action's
 * log and refusal), which boardgame.io keeps for the action that made them only.
 */
export function keptState(full: FullState): KeptState {
  const { deltalog: _, transients: __, ...kept } = full as FullState & { transients?: unknown };
  return kept;
}

/** boardgame.io's set-up of a match: dealt from `seed` when given, else from setupData's deal. */
export function initialFull(game: IronCurtainGame, setupData: unknown, seed?: string): FullState {
  return InitializeGame({
    game: seed === undefined ? game : { ...game, seed },
    numPlayers: 2,
    setupData,
  });
}

/** The public log entries a move recorded (engine moves store them as log metadata). */
export function entriesOf(deltalog: BgioLogEntry[] | undefined): LogEntry[] {
  return (deltalog ?? []).flatMap(
    (entry) => (entry.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
  );
}

export type Step =
  | {
      ok: true;
      full: FullState;
      entries: LogEntry[];
      /** The game's end as boardgame.io's endIf computed it with the move. */
      gameover: Gameover | undefined;
    }
  | {
      ok: false;
      /** 'not-your-decision': the seat is not the one boardgame.io's turn order (the decider) waits for. */
      refusal: 'not-your-decision' | 'invalid';
      reason: string;
    };

/** boardgame.io's error for an action it refused before running the move. */
const refusedBefore = (state: FullState): string | undefined =>
  (state as { transients?: { error?: { type?: string } } }).transients?.error?.type;

/**
 * One move through boardgame.io's reducer, the one place legality is decided: the turn order
 * (whose decision it is) and the engine's own check inside the move. A refusal carries the
 * engine's reason, read from the Game (see refusalOf) rather than by running the move again.
 * `game` is the Game of `reduce` (or the one it wraps), whose moves record their refusals.
 */
export function stepMove(
  game: IronCurtainGame,
  reduce: GameReducer,
  before: FullState,
  request: { seat: Seat; move: MoveName | string; args: unknown[] },
): Step {
  const refusal = refusalOf(game);
  if (refusal) refusal.reason = undefined;
  const full = reduce(before as BgioState, {
    type: 'MAKE_MOVE',
    payload: { type: request.move, args: request.args, playerID: request.seat },
  }) as FullState;
  if (full._stateID !== before._stateID) {
    const gameover = (full.ctx as Ctx).gameover as Gameover | undefined;
    return { ok: true, full, entries: entriesOf(full.deltalog), gameover };
  }
  if (refusedBefore(full) === 'action/inactive_player') {
    return {
      ok: false,
      refusal: 'not-your-decision',
      reason: `it is not seat ${request.seat}'s decision`,
    };
  }
  return {
    ok: false,
    refusal: 'invalid',
    reason: refusal?.reason ?? `${request.move} was refused by the game flow`,
  };
}
