import {
  type CardId,
  createState,
  type MatchRecord,
  type Move,
  parseSetupData,
  RECORD_VERSION,
  type Result,
  type RulesContext,
  rulesOf,
  type Seat,
  type Side,
  type State,
  type Variants,
  viewFor,
} from '@iron-curtain/game';
import { type BotOptions, chooseMove, type Strategy } from './bot.ts';
import { createRng } from './random.ts';
import { play } from './simple.ts';

export interface Contestant {
  strategy: Strategy;
  options?: Omit<BotOptions, 'seed'>;
}

export interface GameSpec {
  /** Deals the cards and seeds both bots. */
  seed: number | string;
  /** Who sits at seat 0 and seat 1. */
  players: Record<Seat, Contestant>;
  /** The side seat 0 plays (seat 1 plays the other). */
  seat0Side: Side;
  /** The deck and edition variants, as a match's setupData names them; the default deck and the standard edition when absent. */
  rules?: { deck?: unknown; variants?: Partial<Variants> };
}

export interface GameRecord {
  result: Result;
  winner: Seat;
  marker: number;
  decisions: number;
  /** Milliseconds each seat spent on each of its decisions. */
  decisionMs: Record<Seat, number[]>;
  moves: { seat: Seat; move: Move }[];
}

/** A new match dealt from `seed`, as the server would deal it from its own secret seed. */
export function newGame(
  seed: number | string,
  seat0Side: Side,
  rules: GameSpec['rules'] = {},
): { rules: RulesContext; state: State } {
  const setup = parseSetupData({
    ...rules,
    sides: { '0': seat0Side, '1': seat0Side === 'US' ? 'USSR' : 'US' },
  });
  const rng = createRng(`deal:${seed}`);
  return {
    rules: rulesOf(setup),
    state: createState(setup, (cards: CardId[]) => rng.shuffle([...cards])),
  };
}

/** Plays one whole game between two bots, each given only its seat's view. */
export function playGame(spec: GameSpec): GameRecord {
  const { rules, state } = newGame(spec.seed, spec.seat0Side, spec.rules);
  const decisionMs: Record<Seat, number[]> = { '0': [], '1': [] };
  const moves: { seat: Seat; move: Move }[] = [];
  while (!state.result && state.decision) {
    const seat = state.decision.seat;
    const { strategy, options } = spec.players[seat];
    const started = performance.now();
    const move = chooseMove(rules, viewFor(state, seat), seat, strategy, {
      ...options,
      seed: `${spec.seed}:${seat}:${moves.length}`,
    });
    decisionMs[seat].push(performance.now() - started);
    play(rules, state, seat, move);
    moves.push({ seat, move });
  }
  const result = state.result;
  if (!result) throw new Error('the game stopped without a result');
  const winner: Seat = state.sides['0'] === result.winnerSide ? '0' : '1';
  return { result, winner, marker: state.marker, decisions: moves.length, decisionMs, moves };
}

/** A bot game as a replayable match record: its deal fixed, its moves in order. */
export function matchRecordOf(spec: GameSpec, game: GameRecord): MatchRecord {
  const { state } = newGame(spec.seed, spec.seat0Side, spec.rules);
  return {
    version: RECORD_VERSION,
    setupData: {
      ...spec.rules,
      sides: state.sides,
      deal: { '0': state.hands['0'], '1': state.hands['1'], reserve: state.reserve },
    },
    moves: game.moves.map(({ seat, move }) => ({
      playerID: seat,
      move: move.move,
      args: move.args,
    })),
  };
}
