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
 * Scratch grid over the table's bounding box (one cell of margin) for the cell lookups of
 * legalCells and reachableBy, which a bot's search calls millions of times per game. An
 * entry counts only while it holds the grid's current stamp, so the grid is never cleared
 * and, once grown, never allocated again.
 */
class CellGrid {
  private stamps = new Uint32Array(0);
  private values = new Int32Array(0);
  private stamp = 0;
  private minX = 0;
  private minY = 0;
  private height = 0;

  /** Empties the grid for a table. */
  reset(table: readonly PlacedCard[]): void {
    let minX = 0;
    let maxX = 0;
    let minY = 0;
    let maxY = 0;
    for (const p of table) {
      if (p.x < minX) minX = p.x;
      if (p.x > maxX) maxX = p.x;
      if (p.y < minY) minY = p.y;
      if (p.y > maxY) maxY = p.y;
    }
    this.minX = minX - 1;
    this.minY = minY - 1;
    this.height = maxY - minY + 3;
    const size = (maxX - minX + 3) * this.height;
    if (this.stamps.length < size) {
      this.stamps = new Uint32Array(size * 2);
      this.values = new Int32Array(size * 2);
      this.stamp = 0;
    }
    this.stamp += 1;
    if (this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
  }

  /** The value at a cell on or next to the table; 0 when unset. */
  get(x: number, y: number): number {
    const i = (x - this.minX) * this.height + (y - this.minY);
    return this.stamps[i] === this.stamp ? (this.values[i] as number) : 0;
  }

  set(x: number, y: number, value: number): void {
    const i = (x - this.minX) * this.height + (y - this.minY);
    this.stamps[i] = this.stamp;
    this.values[i] = value;
  }
}

/** Which card lies on a cell: its table index + 1. */
const occupancy = new CellGrid();
/** What legalCells has already listed a cell as. */
const listed = new CellGrid();
const LISTED_ANY = 1;
const LISTED_SAME_REGION = 2;

function fillOccupancy(table: readonly PlacedCard[]): void {
  occupancy.reset(table);
  for (let i = 0; i < table.length; i++) {
    const p = table[i] as PlacedCard;
    occupancy.set(p.x, p.y, i + 1);
  }
}

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
  const table = state.table;
  fillOccupancy(table);
  listed.reset(table);
  const any: Cell[] = [];
  const sameRegion: Cell[] = [];
  for (const p of table) {
    if (moving && p.cardId === cardId) continue;
    const isSameRegion = card(p.cardId).region === region;
    for (const d of DIRECTIONS) {
      const x = p.x + d.x;
      const y = p.y + d.y;
      if (occupancy.get(x, y) !== 0) continue;
      const was = listed.get(x, y);
      let now = was | LISTED_ANY;
      if (isSameRegion) now |= LISTED_SAME_REGION;
      if (now === was) continue;
      listed.set(x, y, now);
      const cell = { x, y };
      if (!(was & LISTED_ANY)) any.push(cell);
      if (isSameRegion && !(was & LISTED_SAME_REGION)) sameRegion.push(cell);
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
  const table = state.table;
  fillOccupancy(table);
  const reachable = new Set<CardId>();
  for (const p of table) {
    if (p.cubes[side] === 0) continue;
    reachable.add(p.cardId);
    for (const d of DIRECTIONS) {
      const at = occupancy.get(p.x + d.x, p.y + d.y);
      if (at !== 0) reachable.add((table[at - 1] as PlacedCard).cardId);
    }
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
