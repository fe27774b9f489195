import type { DeckRef } from './rules-context.ts';
import {
  type CardId,
  type Decision,
  type FinalScoringStep,
  otherSeat,
  type PlacedCard,
  type QueuedStep,
  type RegionId,
  type Result,
  type Seat,
  type Side,
} from './types.ts';

export const CUBES_PER_SIDE = 24;
export const HAND_SIZE = 5;
export const RESERVE_HAND_SIZE = 4;
export const PLAYS_PER_ROUND = 8;

/**
 * What changes during a match (boardgame.io's G). Plain JSON; the engine mutates it only after
 * a move is validated. The deck and variants are its RulesContext, passed in beside it.
 */
export interface State {
  /** The deck this match is dealt from (its cards are in the RulesContext). */
  deck: DeckRef;
  sides: Record<Seat, Side>;
  hands: Record<Seat, CardId[]>;
  reserve: CardId[];
  /** The card each seat set aside at the end of round 1. */
  aftermath: Record<Seat, CardId | null>;
  table: PlacedCard[];
  /** The ideology track: positive towards the US flag (+8), negative towards the USSR flag (-8). */
  marker: number;
  round: 1 | 2;
  /** Cards played so far this round (0-8). */
  plays: number;
  /** The seat that took the first turn of this round, once chosen. */
  firstSeat: Seat | null;
  decision: Decision | null;
  /** Steps of the current turn still to resolve after the decision in progress. */
  queue: QueuedStep[];
  /** Regions completed and scored during play. */
  scoredRegions: RegionId[];
  finalScoring: FinalScoringStep[] | null;
  result: Result | null;
}

export function seatOf(state: State, side: Side): Seat {
  return state.sides['0'] === side ? '0' : '1';
}

/**
 * Whether each seat has played a card: the first turn is over and the second seat's card is
 * down (or the round or the game is). A rated match that ends before is aborted, unrated.
 */
export function eachSeatPlayedACard(state: State): boolean {
  if (state.round === 2 || state.plays >= 2 || state.result) return true;
  return state.plays === 1 && state.decision?.kind !== 'playCard';
}

/** Whose turn of the round it is (the seat that plays or played this turn's card). */
export function turnSeat(state: State): Seat | null {
  if (state.firstSeat === null) return null;
  if (state.plays % 2 === 0) return state.firstSeat;
  return otherSeat(state.firstSeat);
}

export function supplyOf(state: State, side: Side): number {
  let onTable = 0;
  // Named reads: a read keyed by a variable was a hot spot of search.
  if (side === 'US') for (const p of state.table) onTable += p.cubes.US;
  else for (const p of state.table) onTable += p.cubes.USSR;
  return CUBES_PER_SIDE - onTable;
}
