import {
  legalMoves,
  type Move,
  type RulesContext,
  type Seat,
  type State,
  supplyOf,
} from '@iron-curtain/game';

const argKey = (value: unknown): string =>
  Array.isArray(value)
    ? JSON.stringify(value)
    : typeof value === 'object' && value !== null
      ? `${(value as { x: number }).x},${(value as { y: number }).y}`
      : String(value);

/** A stable text key for a move, to tell moves apart in a search tree. */
export function moveKey(move: Move): string {
  const [a, b] = move.args;
  if (move.args.length === 0) return move.move;
  if (move.args.length === 1) return `${move.move}:${argKey(a)}`;
  return `${move.move}:${argKey(a)}:${argKey(b)}`;
}

/**
 * The legal moves worth considering. Two prunings that lose nothing:
 * - a cube placed or an opponent's cube removed never hurts its side, so
 *   finishing such a step early is dropped while the supply lasts;
 * - the order of cubes in one placement step does not matter (costs on one
 *   card do not depend on another card), so cubes go in target-list order.
 * With an empty supply every cube placed is taken from another card, so then
 * every legal move stays.
 */
export function candidateMoves(rules: RulesContext, state: State, seat: Seat): Move[] {
  const moves = legalMoves(rules, state, seat);
  const d = state.decision;
  if (d === null) return moves;
  if (d.kind === 'placeCubes' && supplyOf(state, d.side) > 0) {
    let last = -1;
    for (const id of Object.keys(d.placed)) last = Math.max(last, d.targets.indexOf(id));
    const ordered = moves.filter(
      (m) => m.move === 'placeCube' && d.targets.indexOf(m.args[0] as string) >= last,
    );
    return ordered.length > 0 ? ordered : moves;
  }
  if (d.kind === 'removeCubes') {
    const removals = moves.filter((m) => m.move === 'removeCube');
    return removals.length > 0 ? removals : moves;
  }
  return moves;
}
