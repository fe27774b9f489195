import { indexDeck } from './deck-index.ts';
import type { RulesContext } from './rules-context.ts';
import type { State } from './state.ts';
import type { CardId, Cell, PlacedCard, Side, TargetSet } from './types.ts';

/** Orthogonal neighbours only: diagonals never count. */
const DIRECTIONS: readonly Cell[] = [
  { x: 1, y: 0 },
  { x: -1, y: 0 },
  { x: 0, y: 1 },
  { x: 0, y: -1 },
];

/**
 * A cell as one number. Every card lies within 19 orthogonal steps of the
 * starter (each is placed or moved next to another), so |y| < 2048 keeps keys unique.
 */
const key = (x: number, y: number) => x * 4096 + y;

export function placedCard(state: State, cardId: CardId): PlacedCard | undefined {
  return state.table.find((p) => p.cardId === cardId);
}

export function neighbours(state: State, cardId: CardId): PlacedCard[] {
  const card = placedCard(state, cardId);
  if (!card) return [];
  return state.table.filter((p) => Math.abs(p.x - card.x) + Math.abs(p.y - card.y) === 1);
}

/**
 * Where a card may be put: an empty cell orthogonally adjacent to a card on the
 * table, and next to a card of its own region whenever such a cell exists.
 * `moving` is the card being moved by an event: its own cell and its own
 * adjacency do not count.
 */
export function legalCells(
  rules: RulesContext,
  state: State,
  cardId: CardId,
  moving = false,
): Cell[] {
  const { card } = indexDeck(rules.deck);
  const region = card(cardId).region;
  const occupied = new Set(state.table.map((p) => key(p.x, p.y)));
  const seenAny = new Set<number>();
  const seenSameRegion = new Set<number>();
  const any: Cell[] = [];
  const sameRegion: Cell[] = [];
  for (const p of state.table) {
    if (moving && p.cardId === cardId) continue;
    const isSameRegion = card(p.cardId).region === region;
    for (const d of DIRECTIONS) {
      const x = p.x + d.x;
      const y = p.y + d.y;
      const k = key(x, y);
      if (occupied.has(k)) continue;
      if (!seenAny.has(k)) {
        seenAny.add(k);
        any.push({ x, y });
      }
      if (isSameRegion && !seenSameRegion.has(k)) {
        seenSameRegion.add(k);
        sameRegion.push({ x, y });
      }
    }
  }
  return sameRegion.length > 0 ? sameRegion : any;
}

export function isLegalCell(
  rules: RulesContext,
  state: State,
  cardId: CardId,
  cell: Cell,
  moving = false,
): boolean {
  return legalCells(rules, state, cardId, moving).some((c) => c.x === cell.x && c.y === cell.y);
}

/** Cards a side may Command onto: holding one of its cubes, or orthogonally adjacent to such a card. */
export function reachableBy(state: State, side: Side): Set<CardId> {
  const reachable = new Set<CardId>();
  for (const p of state.table) {
    if (p.cubes[side] === 0) continue;
    reachable.add(p.cardId);
    for (const n of neighbours(state, p.cardId)) reachable.add(n.cardId);
  }
  return reachable;
}

/** The cards on the table that a target set names, in table order. */
export function cardsIn(rules: RulesContext, state: State, targets: TargetSet): CardId[] {
  const { card } = indexDeck(rules.deck);
  switch (targets.kind) {
    case 'any':
      return state.table.map((p) => p.cardId);
    case 'region':
      return state.table
        .filter((p) => card(p.cardId).region === targets.region)
        .map((p) => p.cardId);
    case 'cards':
      return state.table.filter((p) => targets.cards.includes(p.cardId)).map((p) => p.cardId);
    case 'adjacent': {
      if (!placedCard(state, targets.card)) return [];
      const near = new Set(neighbours(state, targets.card).map((p) => p.cardId));
      if (targets.includeSelf) near.add(targets.card);
      return state.table.filter((p) => near.has(p.cardId)).map((p) => p.cardId);
    }
  }
}
