import { indexDeck } from './deck-index.ts';
import type { RulesContext } from './rules-context.ts';
import type { State } from './state.ts';
import {
  type AftermathScore,
  type CardId,
  type Cubes,
  opponentOf,
  type RegionId,
  type RegionScore,
  type Side,
} from './types.ts';

export const TRACK_END = 8;

/** The side with MORE cubes on a card (a tie: nobody). Dominating scores 1 IP. */
export function dominatedBy(cubes: Cubes): Side | null {
  if (cubes.US > cubes.USSR) return 'US';
  if (cubes.USSR > cubes.US) return 'USSR';
  return null;
}

/** The side leading by 2 or more on a card: the opponent pays double to Command there. */
export function controlledBy(cubes: Cubes): Side | null {
  if (cubes.US - cubes.USSR >= 2) return 'US';
  if (cubes.USSR - cubes.US >= 2) return 'USSR';
  return null;
}

/** Cost in command value of one cube for `side` on a card: 2 if the opponent controls it. */
export function commandCost(cubes: Cubes, side: Side): number {
  return controlledBy(cubes) === opponentOf(side) ? 2 : 1;
}

const towardsUS = (points: Record<Side, number>) => points.US - points.USSR;

/** One region's score from the cards of it on the table: 1 IP per dominated card, the bonus for dominating more cards. */
export function regionScore(rules: RulesContext, state: State, region: RegionId): RegionScore {
  const deck = indexDeck(rules.deck);
  const cards = state.table
    .filter((p) => deck.card(p.cardId).region === region)
    .map((p) => ({ cardId: p.cardId, dominatedBy: dominatedBy(p.cubes) }));
  const count = (side: Side) => cards.filter((c) => c.dominatedBy === side).length;
  const dominated = { US: count('US'), USSR: count('USSR') };
  const bonusTo = dominatedBy(dominated);
  const bonus = deck.region(region).bonus;
  const points = {
    US: dominated.US + (bonusTo === 'US' ? bonus : 0),
    USSR: dominated.USSR + (bonusTo === 'USSR' ? bonus : 0),
  };
  return { region, cards, bonusTo, points, delta: towardsUS(points) };
}

/** The aftermath: each flag's command values summed, whoever set the card aside; the difference, capped. */
export function aftermathScore(rules: RulesContext, cards: CardId[]): AftermathScore {
  const deck = indexDeck(rules.deck);
  const sums = { US: 0, USSR: 0 };
  for (const id of cards) {
    const card = deck.card(id);
    if (card.flag) sums[card.flag] += card.command ?? 0;
  }
  const difference = towardsUS(sums);
  const cap = rules.variants.aftermathCap;
  const delta = cap === null ? difference : Math.max(-cap, Math.min(cap, difference));
  return { cards, sums, delta };
}

/** Regions in the order final scoring visits them. */
export function finalScoringOrder(rules: RulesContext): RegionId[] {
  const order = rules.deck.regions.map((r) => r.id);
  if (rules.variants.finalScoringOrder === 'polish' && order.length >= 2) {
    const last = order.length - 1;
    [order[last - 1], order[last]] = [order[last] as RegionId, order[last - 1] as RegionId];
  }
  return order;
}
