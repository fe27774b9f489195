import {
  type CardId,
  type Cell,
  legalMoves,
  type PlaceCubesDecision,
  placementTargets,
  type RulesContext,
  type Seat,
  type Side,
  type State,
} from '@iron-curtain/game';

/** What the local seat may do now, grouped for the board and the prompts. Every entry comes from the engine's legalMoves. */
export interface Choices {
  firstPlayer: Side[];
  /** Hand card -> the cells it may go to. */
  play: Map<CardId, Cell[]>;
  action: ('event' | 'command')[];
  decideEvent: boolean[];
  /** Card -> cost of one cube there, and the cards a cube may be taken back from when the supply is empty. */
  place: Map<CardId, { cost: number; from: CardId[] }>;
  remove: Set<CardId>;
  moveTo: Cell[];
  finish: boolean;
}

export const noChoices = (): Choices => ({
  firstPlayer: [],
  play: new Map(),
  action: [],
  decideEvent: [],
  place: new Map(),
  remove: new Set(),
  moveTo: [],
  finish: false,
});

export function choicesFor(rules: RulesContext, view: State, seat: Seat | null): Choices {
  const choices = noChoices();
  if (seat === null) return choices;
  const moves = legalMoves(rules, view, seat);
  const d = view.decision;
  const costs =
    d?.kind === 'placeCubes'
      ? new Map(placementTargets(view, d as PlaceCubesDecision).map((t) => [t.cardId, t.cost]))
      : new Map<CardId, number>();
  for (const { move, args } of moves) {
    const [a, b] = args;
    switch (move) {
      case 'chooseFirstPlayer':
        choices.firstPlayer.push(a as Side);
        break;
      case 'playCard': {
        const cells = choices.play.get(a as CardId) ?? [];
        cells.push(b as Cell);
        choices.play.set(a as CardId, cells);
        break;
      }
      case 'chooseAction':
        choices.action.push(a as 'event' | 'command');
        break;
      case 'decideEvent':
        choices.decideEvent.push(a as boolean);
        break;
      case 'placeCube': {
        const target = choices.place.get(a as CardId) ?? {
          cost: costs.get(a as CardId) ?? 1,
          from: [],
        };
        if (b !== undefined) target.from.push(b as CardId);
        choices.place.set(a as CardId, target);
        break;
      }
      case 'removeCube':
        choices.remove.add(a as CardId);
        break;
      case 'moveCard':
        choices.moveTo.push(b as Cell);
        break;
      case 'finishStep':
        choices.finish = true;
        break;
    }
  }
  return choices;
}

export const cellKey = (cell: Cell) => `${cell.x},${cell.y}`;
