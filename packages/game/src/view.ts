import type { State } from './state.ts';
import { supplyOf } from './state.ts';
import {
  type CardId,
  type Cubes,
  HIDDEN_CARD,
  isSeat,
  type RegionId,
  type Result,
  type Seat,
  type Side,
} from './types.ts';

const hide = (cards: CardId[]): CardId[] => cards.map(() => HIDDEN_CARD);

/** The aftermath pile is revealed by final scoring, not before. */
export const aftermathRevealed = (state: State): boolean => state.finalScoring !== null;

/**
 * What one seat (or a spectator, `null`) may know. Same shape as the state,
 * with every card the viewer may not know replaced by HIDDEN_CARD, so the
 * client and bots can ask `legalMoves` of a view for their own seat.
 */
export function viewFor(state: State, viewer: Seat | null | undefined): State {
  const seat = isSeat(viewer) ? viewer : null;
  const revealed = aftermathRevealed(state);
  const aftermathCard = (owner: Seat) => {
    const card = state.aftermath[owner];
    return card === null || revealed || owner === seat ? card : HIDDEN_CARD;
  };
  return {
    ...state,
    hands: {
      '0': seat === '0' ? [...state.hands['0']] : hide(state.hands['0']),
      '1': seat === '1' ? [...state.hands['1']] : hide(state.hands['1']),
    },
    reserve: hide(state.reserve),
    aftermath: { '0': aftermathCard('0'), '1': aftermathCard('1') },
  };
}

export interface PublicView {
  /** Positive towards the US, -8..8. */
  marker: number;
  round: 1 | 2;
  /** Cards played so far this round. */
  turn: number;
  table: { cardId: CardId; x: number; y: number; cubes: Cubes }[];
  supply: Record<Side, number>;
  handCounts: Record<Seat, number>;
  reserveCount: number;
  aftermathCount: number;
  scoredRegions: RegionId[];
  winner: Result | null;
}

/** A JSON summary of the public state, for tests and tools. */
export function publicView(state: State): PublicView {
  return {
    marker: state.marker,
    round: state.round,
    turn: state.plays,
    table: state.table.map(({ cardId, x, y, cubes }) => ({ cardId, x, y, cubes: { ...cubes } })),
    supply: { US: supplyOf(state, 'US'), USSR: supplyOf(state, 'USSR') },
    handCounts: { '0': state.hands['0'].length, '1': state.hands['1'].length },
    reserveCount: state.reserve.length,
    aftermathCount: [state.aftermath['0'], state.aftermath['1']].filter((c) => c !== null).length,
    scoredRegions: [...state.scoredRegions],
    winner: state.result,
  };
}
