import {
  type CardId,
  HIDDEN_CARD,
  indexDeck,
  otherSeat,
  type RulesContext,
  type Seat,
  type State,
} from '@iron-curtain/game';
import { cloneState } from './clone.ts';
import { BotError } from './errors.ts';
import type { Rng } from './random.ts';

/** The cards `seat` cannot place: strategy cards not in its hand, not on the table, not its aftermath card. */
export function unseenCards(rules: RulesContext, view: State, seat: Seat): CardId[] {
  const known = new Set<CardId>(view.hands[seat]);
  for (const p of view.table) known.add(p.cardId);
  for (const owner of [seat, otherSeat(seat)]) {
    const card = view.aftermath[owner];
    if (card !== null && card !== HIDDEN_CARD) known.add(card);
  }
  return indexDeck(rules.deck).strategyCards.filter((id) => !known.has(id));
}

/** How many hidden slots a view has: opponent's hand, reserve, opponent's aftermath card. */
function hiddenSlots(view: State, seat: Seat): number {
  const opponent = otherSeat(seat);
  const aftermath = view.aftermath[opponent] === HIDDEN_CARD ? 1 : 0;
  return view.hands[opponent].length + view.reserve.length + aftermath;
}

/** Checks that `view` is what `seat` sees: its own cards known, the others hidden, the counts adding up. */
export function checkView(rules: RulesContext, view: State, seat: Seat): void {
  const deck = indexDeck(rules.deck);
  const opponent = otherSeat(seat);
  if (view.hands[seat].some((id) => !deck.hasCard(id)))
    throw new BotError(`the view must show seat ${seat}'s own hand`);
  if (
    view.hands[opponent].some((id) => id !== HIDDEN_CARD) ||
    view.reserve.some((id) => id !== HIDDEN_CARD)
  )
    throw new BotError("the view must hide the opponent's hand and the reserve");
  const unseen = unseenCards(rules, view, seat).length;
  if (unseen !== hiddenSlots(view, seat)) {
    throw new BotError(
      `inconsistent view: ${hiddenSlots(view, seat)} hidden cards but ${unseen} unseen cards`,
    );
  }
}

/**
 * One possible full state consistent with what `seat` sees: the unseen cards
 * dealt at random into the hidden slots. The view itself is not changed.
 */
export function determinize(rules: RulesContext, view: State, seat: Seat, rng: Rng): State {
  const state = cloneState(view);
  const pool = rng.shuffle(unseenCards(rules, view, seat));
  const opponent = otherSeat(seat);
  let next = 0;
  const draw = (): CardId => pool[next++] as CardId;
  state.hands[opponent] = state.hands[opponent].map(draw);
  state.reserve = state.reserve.map(draw);
  if (state.aftermath[opponent] === HIDDEN_CARD) state.aftermath[opponent] = draw();
  return state;
}
