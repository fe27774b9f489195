import { expect } from 'vitest';
import {
  applyMove,
  BUILT_IN_DECKS,
  type Cubes,
  createState,
  DEFAULT_DECK,
  type Deck,
  indexDeck,
  type LogEntry,
  type MoveName,
  parseSetupData,
  type RulesContext,
  rulesOf,
  type Seat,
  type SetupData,
  type Side,
  STANDARD_VARIANTS,
  type State,
  seatOf,
} from '../src/index.ts';

export const US_SEAT: Seat = '0';
export const USSR_SEAT: Seat = '1';

/** A deal in deck order: the first five strategy cards to seat 0, the next five to seat 1. */
export function deckOrderDeal() {
  const cards = indexDeck(DEFAULT_DECK).strategyCards;
  return { '0': cards.slice(0, 5), '1': cards.slice(5, 10), reserve: cards.slice(10) };
}

/** Version 1 of the default deck, for tests written for its cards (the default may change). */
export const DECK_VERSION_1 = BUILT_IN_DECKS.find((d) => d.version === '1') as Deck;

/** The default deck with the standard edition's variants. */
export const STANDARD_RULES: RulesContext = { deck: DEFAULT_DECK, variants: STANDARD_VARIANTS };

// The context each match of a test was set up with; a state made otherwise plays standard.
const contexts = new WeakMap<State, RulesContext>();

/** The rules context a test match was created with. */
export const rulesFor = (state: State): RulesContext => contexts.get(state) ?? STANDARD_RULES;

/** A new match with seat 0 playing the US, dealt in deck order unless told otherwise. */
export function newMatch(setup: Partial<SetupData> = {}): State {
  const parsed = parseSetupData({
    sides: { '0': 'US', '1': 'USSR' },
    deal: deckOrderDeal(),
    ...setup,
  });
  const state = createState(parsed, (cards) => cards);
  contexts.set(state, rulesOf(parsed));
  return state;
}

/** Removes a card from wherever it is off the table (hands, reserve, aftermath). */
function takeCard(state: State, cardId: string): void {
  for (const seat of ['0', '1'] as const) {
    const i = state.hands[seat].indexOf(cardId);
    if (i >= 0) state.hands[seat].splice(i, 1);
    if (state.aftermath[seat] === cardId) state.aftermath[seat] = null;
  }
  const r = state.reserve.indexOf(cardId);
  if (r >= 0) state.reserve.splice(r, 1);
}

/** Puts cards on the table as a position of a rulebook example: [card, x, y, US cubes, USSR cubes]. */
export function lay(state: State, cards: [string, number, number, number?, number?][]): State {
  for (const [cardId, x, y, us = 0, ussr = 0] of cards) {
    const existing = state.table.find((p) => p.cardId === cardId);
    if (existing) {
      Object.assign(existing, { x, y, cubes: { US: us, USSR: ussr } });
      continue;
    }
    takeCard(state, cardId);
    state.table.push({ cardId, x, y, cubes: { US: us, USSR: ussr } });
  }
  return state;
}

/** Gives a seat exactly these cards in hand. */
export function hand(state: State, seat: Seat, cards: string[]): State {
  for (const c of cards) takeCard(state, c);
  state.hands[seat] = [...cards];
  return state;
}

/** Starts the turn of `side` in round 1 (USSR chose it to go first), ready to play a card. */
export function turnOf(state: State, side: Side): State {
  state.firstSeat = seatOf(state, side);
  state.decision = { kind: 'playCard', seat: state.firstSeat };
  return state;
}

/**
 * The USSR plays Vietnam at (0, -1) and Commands 4 with it, on a new match with `table` laid:
 * the start of the Command tests' placement steps.
 */
export function ussrCommandsWithVietnam(table: Parameters<typeof lay>[1]): State {
  const state = turnOf(lay(newMatch(), table), 'USSR');
  hand(state, USSR_SEAT, ['vietnam']);
  play(state, 'USSR', 'playCard', 'vietnam', { x: 0, y: -1 });
  play(state, 'USSR', 'chooseAction', 'command');
  return state;
}

export function cubesOn(state: State, cardId: string): Cubes {
  const card = state.table.find((p) => p.cardId === cardId);
  if (!card) throw new Error(`${cardId} is not on the table`);
  return card.cubes;
}

/** Plays a move that must be legal; returns its log entries. */
export function play(state: State, side: Side, move: MoveName, ...args: unknown[]): LogEntry[] {
  const outcome = applyMove(rulesFor(state), state, seatOf(state, side), move, args);
  if (!outcome.ok)
    throw new Error(`${side} ${move}(${JSON.stringify(args)}) refused: ${outcome.error}`);
  return outcome.log;
}

/** A move that must be refused, leaving the state exactly as it was; returns the reason. */
export function refused(state: State, seat: unknown, move: unknown, ...args: unknown[]): string {
  const before = structuredClone(state);
  const outcome = applyMove(rulesFor(state), state, seat, move, args);
  expect(outcome.ok, `${String(move)}(${JSON.stringify(args)}) should be refused`).toBe(false);
  expect(state).toEqual(before);
  return outcome.ok ? '' : outcome.error;
}
