import {
  aftermathScore,
  type CardId,
  HIDDEN_CARD,
  type RulesContext,
  regionScore,
  type Side,
  type State,
} from '@iron-curtain/game';

/** Beyond any reachable projection, so a won game outranks every unfinished one. */
const WIN = 100;

/**
 * How well `side` stands: the marker plus what final scoring would add if the
 * game ended now (every region scored once more, the known aftermath cards).
 * Positive is good for `side`.
 */
export function projection(rules: RulesContext, state: State, side: Side): number {
  const sign = side === 'US' ? 1 : -1;
  if (state.result) return state.result.winnerSide === side ? WIN : -WIN;
  let towardsUS = state.marker;
  const known = [state.aftermath['0'], state.aftermath['1']].filter(
    (c): c is CardId => c !== null && c !== HIDDEN_CARD,
  );
  if (state.finalScoring === null) towardsUS += aftermathScore(rules, known).delta;
  for (const region of rules.deck.regions) towardsUS += regionScore(rules, state, region.id).delta;
  return sign * towardsUS;
}
