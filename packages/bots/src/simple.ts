import { applyMove, type Move, type Seat, type State } from '@iron-curtain/game';
import { cloneState } from './clone.ts';
import { projection } from './evaluate.ts';
import { candidateMoves } from './moves.ts';
import type { Rng } from './random.ts';

/** Applies a move the caller took from legalMoves; a refusal there is a bug, not a game event. */
export function play(state: State, seat: Seat, move: Move): void {
  const outcome = applyMove(state, seat, move.move, move.args);
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

const after = (state: State, seat: Seat, move: Move): State => {
  const next = cloneState(state);
  play(next, seat, move);
  return next;
};

const markerFor = (state: State, seat: Seat): number =>
  state.sides[seat] === 'US' ? state.marker : -state.marker;

/** The benchmark's one-ply greedy player: the move that puts the marker furthest towards its flag. */
export function greedyMove(state: State, seat: Seat, rng: Rng): Move {
  return best(candidateMoves(state, seat), (m) => markerFor(after(state, seat, m), seat), rng);
}

/**
 * Value of a state for `seat` looking through the rest of its own part of the turn:
 * choices of card, cell, action and event are searched; cubes, removals and
 * moves of one step are chosen one at a time (their effects nearly add up).
 */
function ownTurnValue(state: State, seat: Seat, rng: Rng): number {
  const side = state.sides[seat];
  let current = state;
  while (current.decision?.seat === seat && !current.result) {
    const kind = current.decision.kind;
    // A new turn or round is beyond this turn's horizon.
    if (kind === 'playCard' || kind === 'chooseFirstPlayer') break;
    const moves = candidateMoves(current, seat);
    if (kind === 'placeCubes' || kind === 'removeCubes' || kind === 'moveCard') {
      const here = current;
      current = after(
        here,
        seat,
        best(moves, (m) => projection(after(here, seat, m), side), rng),
      );
      continue;
    }
    const here = current;
    let top = Number.NEGATIVE_INFINITY;
    for (const m of moves) top = Math.max(top, ownTurnValue(after(here, seat, m), seat, rng));
    return top;
  }
  return projection(current, side);
}

/** Medium: the best projection after finishing its own part of the turn. */
export function mediumMove(state: State, seat: Seat, rng: Rng): Move {
  return best(
    candidateMoves(state, seat),
    (m) => ownTurnValue(after(state, seat, m), seat, rng),
    rng,
  );
}

/** How often easy plays a random sensible move instead of its one-step best. */
const EASY_SLIP = 0.3;

/** Easy: the best projection one decision ahead, with frequent slips. */
export function easyMove(state: State, seat: Seat, rng: Rng): Move {
  const moves = candidateMoves(state, seat);
  if (rng.next() < EASY_SLIP) return rng.pick(moves);
  const side = state.sides[seat];
  return best(moves, (m) => projection(after(state, seat, m), side), rng);
}
