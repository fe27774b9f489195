import {
  type CardId,
  type Cell,
  indexDeck,
  type Move,
  type RulesContext,
  type Side,
  type State,
} from '@iron-curtain/game';

/** Where a cell lies seen from a card beside it: "left of Poland". */
export type Direction = 'left' | 'right' | 'above' | 'below';

/** A card orthogonally beside a cell, and which side of it the cell is on. */
export interface Beside {
  card: CardId;
  direction: Direction;
}

/**
 * A move in the log's vocabulary, as data: the CLI puts it in English, the web client translates
 * it. A cell is named by the cards beside it, as players name it; x and y only mark it on a board.
 */
export type MoveWords =
  | { kind: 'first'; side: Side }
  | { kind: 'play'; card: CardId; x: number; y: number; beside: Beside[] }
  | { kind: 'event'; card: CardId }
  | { kind: 'command'; card: CardId; value: number }
  | { kind: 'useEvent'; card: CardId }
  | { kind: 'declineEvent'; card: CardId }
  | { kind: 'place'; card: CardId; from: CardId | null }
  /** A confirmed draft: its cubes in order. */
  | { kind: 'placeAll'; cubes: { card: CardId; from: CardId | null }[] }
  | { kind: 'remove'; card: CardId }
  | { kind: 'move'; card: CardId; x: number; y: number; beside: Beside[] }
  | { kind: 'finish' };

/** At most this many cards name a cell: one already tells it apart, a second helps the eye. */
const BESIDE_NAMED = 2;

/**
 * The cards orthogonally beside a cell of the table (leaving out `moving`, the card an event moves),
 * in the table's order. Rows grow downwards, as the board draws them.
 */
function besideCell(state: State, cell: Cell, moving: CardId | null = null): Beside[] {
  const beside: Beside[] = [];
  for (const p of state.table) {
    if (p.cardId === moving) continue;
    const dx = cell.x - p.x;
    const dy = cell.y - p.y;
    if (Math.abs(dx) + Math.abs(dy) !== 1) continue;
    const direction: Direction = dx < 0 ? 'left' : dx > 0 ? 'right' : dy < 0 ? 'above' : 'below';
    beside.push({ card: p.cardId, direction });
  }
  return beside.slice(0, BESIDE_NAMED);
}

/** What `move` does in the position `before` (whose decision it answers). */
export function moveWords(rules: RulesContext, before: State, move: Move): MoveWords {
  const [a, b] = move.args;
  const d = before.decision;
  const decided = d && 'cardId' in d ? d.cardId : '';
  switch (move.move) {
    case 'chooseFirstPlayer':
      return { kind: 'first', side: a as Side };
    case 'playCard':
      return {
        kind: 'play',
        card: a as CardId,
        x: (b as Cell).x,
        y: (b as Cell).y,
        beside: besideCell(before, b as Cell),
      };
    case 'chooseAction':
      return a === 'event'
        ? { kind: 'event', card: decided }
        : {
            kind: 'command',
            card: decided,
            value: indexDeck(rules.deck).card(decided).command ?? 0,
          };
    case 'decideEvent':
      return { kind: a ? 'useEvent' : 'declineEvent', card: decided };
    case 'placeCube':
      return { kind: 'place', card: a as CardId, from: (b as CardId | undefined) ?? null };
    case 'placeCubes':
      return {
        kind: 'placeAll',
        cubes: (a as [CardId, CardId?][]).map(([card, from]) => ({ card, from: from ?? null })),
      };
    case 'removeCube':
      return { kind: 'remove', card: a as CardId };
    case 'moveCard':
      return {
        kind: 'move',
        card: a as CardId,
        x: (b as Cell).x,
        y: (b as Cell).y,
        beside: besideCell(before, b as Cell, a as CardId),
      };
    case 'finishStep':
      return { kind: 'finish' };
  }
}

/** MoveWords in English, for the CLI and tests. */
export function englishMoveWords(rules: RulesContext, words: MoveWords): string {
  const name = (id: CardId) => indexDeck(rules.deck).card(id).name;
  const where = (beside: Beside[]) =>
    beside
      .map(({ card, direction }) =>
        direction === 'above' || direction === 'below'
          ? `${direction} ${name(card)}`
          : `${direction} of ${name(card)}`,
      )
      .join(' and ');
  switch (words.kind) {
    case 'first':
      return `the ${words.side} to go first`;
    case 'play':
      return `${name(words.card)} ${where(words.beside)}`;
    case 'event':
      return `the event of ${name(words.card)}`;
    case 'command':
      return `Command ${words.value} with ${name(words.card)}`;
    case 'useEvent':
      return `resolving the event of ${name(words.card)}`;
    case 'declineEvent':
      return `declining the event of ${name(words.card)}`;
    case 'place':
      return `a cube on ${name(words.card)}${words.from ? ` (taken from ${name(words.from)})` : ''}`;
    case 'placeAll':
      return words.cubes
        .map(
          ({ card, from }) => `a cube on ${name(card)}${from ? ` (taken from ${name(from)})` : ''}`,
        )
        .join(', ');
    case 'remove':
      return `removing a cube from ${name(words.card)}`;
    case 'move':
      return `moving ${name(words.card)} ${where(words.beside)}`;
    case 'finish':
      return 'ending the step';
  }
}
