import {
  draftPlacements,
  isSeat,
  legalMoves,
  type Move,
  type RulesContext,
  type Seat,
  type State,
  viewFor,
} from '@iron-curtain/game';
import { checkView, determinize } from './determinize.ts';
import { BotError } from './errors.ts';
import { ismcts } from './ismcts.ts';
import { candidateMoves } from './moves.ts';
import { createRng, hashSeed, type Rng } from './random.ts';
import { easyMove, greedyMove, mediumMove } from './simple.ts';

/** The levels a player can choose. */
export const BOT_LEVELS = ['easy', 'medium', 'hard'] as const;
export type BotLevel = (typeof BOT_LEVELS)[number];

/** Levels plus the two benchmark baselines. */
export const STRATEGIES = ['random', 'greedy', ...BOT_LEVELS] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const isStrategy = (value: unknown): value is Strategy =>
  (STRATEGIES as readonly unknown[]).includes(value);

export interface BotOptions {
  /** Seeds the bot's choices; the same view, level and seed always give the same move. */
  seed?: number | string;
  /** Hard only: the most search iterations per decision (default HARD_ITERATIONS). */
  iterations?: number;
  /** Hard only: wall-clock cap in ms (default HARD_TIME_MS); it binds on a slow or busy machine. */
  timeMs?: number;
}

/** The most iterations of the hard level per decision (see bench/results.md for its speed). */
export const HARD_ITERATIONS = 1200;
/** Hard searches a decision with more options longer: this many iterations per option, within bounds. */
const ITERATIONS_PER_OPTION = 30;
const MIN_ITERATIONS = 150;
/** Stop searching after this many ms, leaving room within the 1 s goal per decision. */
export const HARD_TIME_MS = 900;

/** A seed from the seat's view, so a bot without an explicit seed is still deterministic. */
function situationSeed(view: State): number {
  const { table, marker, round, plays, decision, hands, aftermath } = view;
  return hashSeed(JSON.stringify({ table, marker, round, plays, decision, hands, aftermath }));
}

function decide(
  rules: RulesContext,
  view: State,
  seat: Seat,
  strategy: Strategy,
  rng: Rng,
  options: BotOptions,
): Move {
  if (strategy === 'random') return rng.pick(legalMoves(rules, view, seat));
  const candidates = candidateMoves(rules, view, seat);
  if (candidates.length === 1) return candidates[0] as Move;
  switch (strategy) {
    case 'greedy':
      return greedyMove(rules, determinize(rules, view, seat, rng), seat, rng);
    case 'easy':
      return easyMove(rules, determinize(rules, view, seat, rng), seat, rng);
    case 'medium':
      return mediumMove(rules, determinize(rules, view, seat, rng), seat, rng);
    case 'hard': {
      const most = options.iterations ?? HARD_ITERATIONS;
      const budget = {
        iterations: Math.min(
          most,
          Math.max(MIN_ITERATIONS, ITERATIONS_PER_OPTION * candidates.length),
        ),
        timeMs: options.timeMs ?? HARD_TIME_MS,
      };
      return ismcts(rules, view, seat, budget, rng).move;
    }
  }
}

function checkOptions(options: BotOptions): void {
  const { seed, iterations, timeMs } = options;
  if (seed !== undefined && typeof seed !== 'number' && typeof seed !== 'string')
    throw new BotError('seed must be a number or a string');
  if (iterations !== undefined && !(Number.isSafeInteger(iterations) && iterations > 0))
    throw new BotError('iterations must be a positive whole number');
  if (timeMs !== undefined && !(typeof timeMs === 'number' && timeMs > 0))
    throw new BotError('timeMs must be a positive number of milliseconds');
}

/**
 * The move a bot makes for `seat`. It reads only what the seat may see: the
 * input is masked with viewFor first, so a full state and the seat's view give
 * the same move. Throws a BotError when it is not the seat's decision.
 */
export function chooseMove(
  rules: RulesContext,
  view: State,
  seat: Seat,
  strategy: Strategy,
  options: BotOptions = {},
): Move {
  if (!isSeat(seat)) throw new BotError(`seat must be '0' or '1', not ${String(seat)}`);
  if (!isStrategy(strategy))
    throw new BotError(
      `unknown bot level ${String(strategy)}: use one of ${STRATEGIES.join(', ')}`,
    );
  const own = viewFor(view, seat);
  if (own.result) throw new BotError('the game is over');
  if (own.decision?.seat !== seat) throw new BotError(`it is not seat ${seat}'s decision`);
  checkView(rules, own, seat);
  checkOptions(options);
  const rng = createRng(options.seed ?? situationSeed(own));
  return decide(rules, own, seat, strategy, rng, options);
}

/**
 * The move a bot sends for `seat`, as a person's client sends it: chooseMove's, but at a
 * Command or Infiltrate step the bot drafts its cubes one by one (chooseMove on the draft, with
 * the seed numbered per cube) and confirms them as one placeCubes move; finishStep when it
 * places none. One message, one stored write and one frame to each viewer per step.
 */
export function chooseDraftedMove(
  rules: RulesContext,
  view: State,
  seat: Seat,
  strategy: Strategy,
  options: BotOptions = {},
): Move {
  const first = chooseMove(rules, view, seat, strategy, options);
  if (first.move !== 'placeCube') return first;
  const own = viewFor(view, seat);
  const cubes: unknown[][] = [first.args];
  for (;;) {
    const draft = draftPlacements(rules, own, seat, cubes);
    if (!draft || draft.complete) break;
    const next = chooseMove(rules, draft.state, seat, strategy, {
      ...options,
      ...(options.seed === undefined ? {} : { seed: `${options.seed}:${cubes.length}` }),
    });
    if (next.move !== 'placeCube') break;
    cubes.push(next.args);
  }
  return { move: 'placeCubes', args: [cubes] };
}
