import {
  legalCells,
  type Move,
  type RulesContext,
  type Seat,
  type Side,
  type State,
} from '@iron-curtain/game';
import { determinize } from './determinize.ts';
import { candidateMoves, moveKey } from './moves.ts';
import type { Rng } from './random.ts';
import { play } from './simple.ts';

export interface SearchBudget {
  /** Iterations (determinize, descend, play out, back up). The reproducible limit. */
  iterations: number;
  /** A wall-clock cap in milliseconds; when it binds the result depends on machine speed. */
  timeMs: number;
  /**
   * A root move that gets at least this share of the iterations (and is searched even when
   * candidateMoves prunes it): the analyser's way to estimate the move that was played as
   * closely as the best one.
   */
  pinned?: { move: Move; share: number };
}

export interface SearchReport {
  move: Move;
  iterations: number;
  /** Visits of each root move, most visited first. */
  visits: { key: string; move: Move; visits: number; winRate: number }[];
}

/** Exploration constant of UCB1 for rewards in [0, 1]. */
const EXPLORATION = 0.7;

interface Node {
  move: Move | null;
  /** The seat that made `move`: rewards are counted from its point of view. */
  seat: Seat | null;
  children: Map<string, Node>;
  visits: number;
  wins: number;
  /** How often this node's move was legal when its parent was visited (ISMCTS availability). */
  available: number;
}

const newNode = (move: Move | null, seat: Seat | null): Node => ({
  move,
  seat,
  children: new Map(),
  visits: 0,
  wins: 0,
  available: 0,
});

/** Where one more cube of `side` changes who dominates the card: it was behind by one or tied. */
function contested(state: State, cardId: unknown, side: Side, adding: boolean): boolean {
  const card = state.table.find((p) => p.cardId === cardId);
  if (!card) return false;
  const lead = side === 'US' ? card.cubes.US - card.cubes.USSR : card.cubes.USSR - card.cubes.US;
  return adding ? lead === 0 || lead === -1 : lead === 0 || lead === 1;
}

/** How often a playout takes the heuristic choice when there is one. */
const PLAYOUT_FOCUS = 0.8;

/**
 * A quick, lightly informed move for playouts: a card is drawn before its cell
 * (sparing the listing of every card's cells), cubes go mostly where they change
 * who dominates a card, and offered events are mostly taken.
 */
function playoutMove(rules: RulesContext, state: State, seat: Seat, rng: Rng): Move {
  const d = state.decision;
  if (d?.kind === 'playCard') {
    const cardId = rng.pick(state.hands[seat]);
    return { move: 'playCard', args: [cardId, rng.pick(legalCells(rules, state, cardId))] };
  }
  if (d?.kind === 'decideEvent') return { move: 'decideEvent', args: [rng.next() < PLAYOUT_FOCUS] };
  const moves = candidateMoves(rules, state, seat);
  if (d && (d.kind === 'placeCubes' || d.kind === 'removeCubes') && rng.next() < PLAYOUT_FOCUS) {
    const adding = d.kind === 'placeCubes';
    const focused = moves.filter(
      (m) => m.move !== 'finishStep' && contested(state, m.args[0], d.side, adding),
    );
    if (focused.length > 0) return rng.pick(focused);
  }
  return rng.pick(moves);
}

/** Plays quick moves to the end of the game. */
function playout(rules: RulesContext, state: State, rng: Rng): void {
  while (!state.result && state.decision) {
    const seat = state.decision.seat;
    play(rules, state, seat, playoutMove(rules, state, seat, rng));
  }
}

/**
 * Single-observer information-set MCTS: every iteration deals the cards the
 * seat cannot see at random (consistent with its view), descends one shared
 * tree of moves with UCB1 over the moves legal in that deal, expands one node,
 * plays out with quick moves and backs the win up. Consecutive decisions of one seat
 * (a card, then its action, then each cube) are separate levels of the tree.
 */
export function ismcts(
  rules: RulesContext,
  view: State,
  seat: Seat,
  budget: SearchBudget,
  rng: Rng,
): SearchReport {
  const root = newNode(null, null);
  const rootMoves = candidateMoves(rules, view, seat);
  const pinned = budget.pinned;
  const pinnedKey = pinned ? moveKey(pinned.move) : null;
  if (pinned && !rootMoves.some((m) => moveKey(m) === pinnedKey)) rootMoves.push(pinned.move);
  const start = performance.now();
  let iterations = 0;
  while (iterations < budget.iterations) {
    if (iterations > 0 && performance.now() - start > budget.timeMs) break;
    iterations += 1;
    const state = determinize(rules, view, seat, rng);
    const path: Node[] = [];
    let node = root;
    while (!state.result && state.decision) {
      const mover = state.decision.seat;
      // The root is the seat's own decision: its moves are the same in every deal.
      const moves = node === root ? rootMoves : candidateMoves(rules, state, mover);
      const untried: Move[] = [];
      let chosen: Node | null = null;
      let bestScore = Number.NEGATIVE_INFINITY;
      for (const move of moves) {
        const child = node.children.get(moveKey(move));
        if (!child) {
          untried.push(move);
          continue;
        }
        child.available += 1;
        const score =
          child.wins / child.visits +
          EXPLORATION * Math.sqrt(Math.log(child.available) / child.visits);
        if (score > bestScore) {
          bestScore = score;
          chosen = child;
        }
      }
      if (node === root && pinned && pinnedKey !== null) {
        // The pinned move is expanded first, then kept at its share of the visits.
        const pinnedChild = root.children.get(pinnedKey);
        if (!pinnedChild) untried.splice(0, untried.length, pinned.move);
        else if (pinnedChild.visits < pinned.share * iterations) {
          chosen = pinnedChild;
          untried.length = 0;
        }
      }
      if (untried.length > 0) {
        const move = rng.pick(untried);
        chosen = newNode(move, mover);
        chosen.available = 1;
        node.children.set(moveKey(move), chosen);
        play(rules, state, mover, move);
        path.push(chosen);
        break;
      }
      if (!chosen) break;
      play(rules, state, mover, chosen.move as Move);
      path.push(chosen);
      node = chosen;
    }
    playout(rules, state, rng);
    const winner = state.result?.winnerSide;
    for (const n of path) {
      n.visits += 1;
      if (n.seat !== null && state.sides[n.seat] === winner) n.wins += 1;
    }
  }
  const visits = [...root.children.entries()]
    .map(([key, n]) => ({
      key,
      visits: n.visits,
      winRate: n.wins / n.visits,
      move: n.move as Move,
    }))
    .sort((a, b) => b.visits - a.visits || b.winRate - a.winRate);
  const top = visits[0];
  if (!top) throw new Error('search found no move');
  return {
    move: top.move,
    iterations,
    visits,
  };
}
