/** The vocabulary of the game as types. See shared/rules/iron-curtain.md. */

export type Side = 'US' | 'USSR';
export const SIDES: readonly Side[] = ['US', 'USSR'];
export const opponentOf = (side: Side): Side => (side === 'US' ? 'USSR' : 'US');

export type Seat = '0' | '1';
export const SEATS: readonly Seat[] = ['0', '1'];
export const otherSeat = (seat: Seat): Seat => (seat === '0' ? '1' : '0');
export const isSeat = (value: unknown): value is Seat => value === '0' || value === '1';

export type CardId = string;
export type RegionId = string;

/** Stands for a card the viewer may not know (opponent's hand, reserve, other aftermath card). */
export const HIDDEN_CARD = '?';

export interface Cell {
  x: number;
  y: number;
}

export type Cubes = Record<Side, number>;

export interface PlacedCard extends Cell {
  cardId: CardId;
  cubes: Cubes;
}

export interface Variants {
  /** Most IP the aftermath can give; null = no cap (German edition). */
  aftermathCap: 3 | null;
  /** 'polish' swaps South and Central America in final scoring. */
  finalScoringOrder: 'standard' | 'polish';
}

export type MoveName =
  | 'chooseFirstPlayer'
  | 'playCard'
  | 'chooseAction'
  | 'decideEvent'
  | 'placeCube'
  | 'placeCubes'
  | 'removeCube'
  | 'moveCard'
  | 'finishStep';

export const MOVE_NAMES: readonly MoveName[] = [
  'chooseFirstPlayer',
  'playCard',
  'chooseAction',
  'decideEvent',
  'placeCube',
  'placeCubes',
  'removeCube',
  'moveCard',
  'finishStep',
];

/**
 * What one argument of a move is: a side, a card's id, a cell {x, y}, 'event' or 'command', true
 * or false, or the cubes of a confirmed draft (a list of placeCube arguments: [card] or
 * [card, card]).
 */
export type MoveArgument = 'side' | 'card' | 'cell' | 'action' | 'yesNo' | 'placements';

/** The most cubes one confirmed draft may name: more than any step can place. */
export const MAX_DRAFTED_CUBES = 32;

/**
 * The arguments each move takes, in every form it may take them: the one table of them. The
 * engine checks how many were sent; the wire schema (packages/protocol) builds each argument's
 * check from it. placeCube's second card names the card to take a cube back from when the
 * supply is empty. placeCubes is a confirmed draft: the cubes of the step, each as placeCube's
 * arguments, played all or none, and the step ends with them.
 */
export const MOVE_ARGUMENTS: Record<MoveName, readonly (readonly MoveArgument[])[]> = {
  chooseFirstPlayer: [['side']],
  playCard: [['card', 'cell']],
  chooseAction: [['action']],
  decideEvent: [['yesNo']],
  placeCube: [['card'], ['card', 'card']],
  placeCubes: [['placements']],
  removeCube: [['card']],
  moveCard: [['card', 'cell']],
  finishStep: [[]],
};

/** A move as the client, bots and replay files send it. */
export interface Move {
  move: MoveName;
  args: unknown[];
}

/** Whose decision it is and what they decide. Each kind is a boardgame.io stage. */
export type Decision =
  | { kind: 'chooseFirstPlayer'; seat: Seat }
  | { kind: 'playCard'; seat: Seat }
  | { kind: 'chooseAction'; seat: Seat; cardId: CardId }
  | { kind: 'decideEvent'; seat: Seat; cardId: CardId }
  | PlaceCubesDecision
  | RemoveCubesDecision
  | MoveCardDecision;

export type DecisionKind = Decision['kind'];

export const DECISION_MOVES: Record<DecisionKind, readonly MoveName[]> = {
  chooseFirstPlayer: ['chooseFirstPlayer'],
  playCard: ['playCard'],
  chooseAction: ['chooseAction'],
  decideEvent: ['decideEvent'],
  placeCubes: ['placeCube', 'placeCubes', 'finishStep'],
  removeCubes: ['removeCube', 'finishStep'],
  moveCard: ['moveCard', 'finishStep'],
};

/** A Command or Infiltrate step in progress. */
export interface PlaceCubesDecision {
  kind: 'placeCubes';
  seat: Seat;
  side: Side;
  /** The card whose event or command value this step comes from. */
  source: CardId;
  mode: 'command' | 'infiltrate';
  /** Command value (or event count) still to spend. */
  remaining: number;
  /** Cards this step may place on, fixed at its start (no chaining). */
  targets: CardId[];
  maxPerCard: number | null;
  placed: Record<CardId, number>;
}

export interface RemoveCubesDecision {
  kind: 'removeCubes';
  seat: Seat;
  side: Side;
  source: CardId;
  remaining: number;
  targets: CardId[];
}

export interface MoveCardDecision {
  kind: 'moveCard';
  seat: Seat;
  side: Side;
  source: CardId;
  /** The card the event moves. */
  cardId: CardId;
}

export type TargetSet =
  | { kind: 'any' }
  | { kind: 'region'; region: RegionId }
  | { kind: 'cards'; cards: CardId[] }
  | { kind: 'adjacent'; card: CardId; includeSelf: boolean };

export type EffectStep =
  | { op: 'gain'; amount: number }
  | { op: 'command'; amount: number; targets: TargetSet }
  | { op: 'infiltrate'; amount: number; targets: TargetSet; maxPerCard: number | null }
  | { op: 'remove'; amount: number; targets: TargetSet }
  | { op: 'move'; card: CardId };

/** A step still to resolve in the current turn, and the side that resolves it. */
export interface QueuedStep {
  side: Side;
  source: CardId;
  step: EffectStep;
}

export interface RegionScore {
  region: RegionId;
  /** Who dominates each card of the region on the table (null: tie). */
  cards: { cardId: CardId; dominatedBy: Side | null }[];
  bonusTo: Side | null;
  points: Record<Side, number>;
  /** Marker movement, positive towards the US. */
  delta: number;
}

export interface AftermathScore {
  cards: CardId[];
  sums: Record<Side, number>;
  /** Marker movement after the cap, positive towards the US. */
  delta: number;
}

export type FinalScoringStep =
  | { kind: 'aftermath'; score: AftermathScore; marker: number }
  | { kind: 'region'; score: RegionScore; marker: number };

export interface Result {
  winnerSide: Side;
  /** 'track': the marker reached a flag; 'final': decided after final scoring. */
  reason: 'track' | 'final';
}

export type LogEntry =
  | { type: 'firstPlayer'; round: 1 | 2; chooser: Side; first: Side }
  | { type: 'play'; side: Side; cardId: CardId; x: number; y: number }
  | { type: 'action'; side: Side; cardId: CardId; choice: 'event' | 'command' }
  | { type: 'eventDecision'; side: Side; cardId: CardId; use: boolean }
  | { type: 'gain'; side: Side; amount: number; marker: number }
  | {
      type: 'place';
      side: Side;
      cardId: CardId;
      cost: number;
      from: CardId | null;
      mode: 'command' | 'infiltrate';
    }
  | { type: 'remove'; side: Side; cardId: CardId }
  | { type: 'move'; side: Side; cardId: CardId; x: number; y: number }
  | { type: 'finishStep'; side: Side }
  /** A step of an event or a Command that had no legal target and did nothing. */
  | { type: 'noTarget'; side: Side; cardId: CardId; op: EffectStep['op'] }
  | { type: 'regionScored'; score: RegionScore; marker: number; final: boolean }
  | { type: 'aftermathSetAside' }
  | { type: 'roundStarted'; round: 1 | 2 }
  | { type: 'aftermathRevealed'; score: AftermathScore; marker: number }
  | { type: 'gameOver'; result: Result; marker: number };
