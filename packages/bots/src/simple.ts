import { applyMove, type Move, type RulesContext, type Seat, type State } from '@iron-curtain/game';
import { cloneState } from './clone.ts';
import { projection } from './evaluate.ts';
import { candidateMoves } from './moves.ts';
import type { Rng } from './random.ts';

/** Applies a move the caller took from legalMoves; a refusal there is a bug, not a game event. */
export function play(rules: RulesContext, state: State, seat: Seat, move: Move): void {
  const outcome = applyMove(rules, state, seat, move.move, move.args);
  if (!outcome.ok) throw new Error(`engine refused a legal move ${move.move}: ${outcome.error}`);
}

/** The move with the highest value; ties broken at random so play varies with the seed. */
function best(moves: Move[], value: (move: Move) => number, rng: Rng): Move {
  let top: Move[] = [];
  let topValue = Number.NEGATIVE_INFINITY;
  for (const move of moves) {
    const v = value(move);
    if (v > topValue) {
      topValue = v;
      top = [move];
    } else if (v === topValue) top.push(move);
  }
  return rng.pick(top);
}

const after = (rules: RulesContext, state: State, seat: Seat, move: Move): State => {
  const next = cloneState(state);
  play(rules, next, seat, move);
  return next;
};

const markerFor = (state: State, seat: Seat): number =>
  state.sides[seat] === 'US' ? state.marker : -state.marker;

/** The benchmark's one-ply greedy player: the move that puts the marker furthest towards its flag. */
export function greedyMove(rules: RulesContext, state: State, seat: Seat, rng: Rng): Move {
  return best(
    candidateMoves(rules, state, seat),
    (m) => markerFor(after(rules, state, seat, m), seat),
    rng,
  );
}

/** Decisions made one cube, removal or move at a time. */
const isStepDecision = (state: State): boolean => {
  const kind = state.decision?.kind;
  return kind === 'placeCubes' || kind === 'removeCubes' || kind === 'moveCard';
};

/** The seat's lead on a card (its cubes minus the opponent's). */
function leadOn(state: State, seat: Seat, cardId: unknown): number {
  const card = state.table.find((p) => p.cardId === cardId);
  if (!card) return 0;
  return state.sides[seat] === 'US'
    ? card.cubes.US - card.cubes.USSR
    : card.cubes.USSR - card.cubes.US;
}

/**
 * Candidate moves, except that with an empty supply each target keeps only one
 * card to take the cube from: where the seat leads most. This keeps a step with
 * an empty supply from multiplying the options by the number of cards.
 */
function mediumCandidates(rules: RulesContext, state: State, seat: Seat): Move[] {
  const moves = candidateMoves(rules, state, seat);
  if (!moves.some((m) => m.move === 'placeCube' && m.args.length === 2)) return moves;
  const byTarget = new Map<unknown, Move>();
  for (const m of moves) {
    if (m.move !== 'placeCube') continue;
    const kept = byTarget.get(m.args[0]);
    if (!kept || leadOn(state, seat, m.args[1]) > leadOn(state, seat, kept.args[1]))
      byTarget.set(m.args[0], m);
  }
  return [...byTarget.values(), ...moves.filter((m) => m.move !== 'placeCube')];
}

/** The cube, removal or move of a step with the best projection right after it. */
function stepMove(rules: RulesContext, state: State, seat: Seat, rng: Rng): Move {
  const side = state.sides[seat];
  return best(
    mediumCandidates(rules, state, seat),
    (m) => projection(rules, after(rules, state, seat, m), side),
    rng,
  );
}

/**
 * Value of a state for `seat` looking through the rest of its own part of the turn:
 * choices of action and event are searched; cubes, removals and moves of one
 * step are chosen one at a time (their effects nearly add up).
 */
function ownTurnValue(rules: RulesContext, state: State, seat: Seat, rng: Rng): number {
  let current = state;
  while (current.decision?.seat === seat && !current.result) {
    const kind = current.decision.kind;
    // A new turn or round is beyond this turn's horizon.
    if (kind === 'playCard' || kind === 'chooseFirstPlayer') break;
    if (isStepDecision(current)) {
      current = after(rules, current, seat, stepMove(rules, current, seat, rng));
      continue;
    }
    const here = current;
    let top = Number.NEGATIVE_INFINITY;
    for (const m of mediumCandidates(rules, here, seat))
      top = Math.max(top, ownTurnValue(rules, after(rules, here, seat, m), seat, rng));
    return top;
  }
  return projection(rules, current, state.sides[seat]);
}

/** Medium: the best projection after finishing its own part of the turn. */
export function mediumMove(rules: RulesContext, state: State, seat: Seat, rng: Rng): Move {
  if (isStepDecision(state)) return stepMove(rules, state, seat, rng);
  const moves = mediumCandidates(rules, state, seat);
  return best(moves, (m) => ownTurnValue(rules, after(rules, state, seat, m), seat, rng), rng);
}

/** How often easy plays a random sensible move instead of its one-step best. */
const EASY_SLIP = 0.3;

/** Easy: the best projection one decision ahead, with frequent slips. */
export function easyMove(rules: RulesContext, state: State, seat: Seat, rng: Rng): Move {
  const moves = candidateMoves(rules, state, seat);
  if (rng.next() < EASY_SLIP) return rng.pick(moves);
  const side = state.sides[seat];
  return best(moves, (m) => projection(rules, after(rules, state, seat, m), side), rng);
}
