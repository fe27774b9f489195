import {
  type CardId,
  commandCost,
  createState,
  type PlacedCard,
  parseSetupData,
  type RegionScore,
  type RulesContext,
  reachableBy,
  regionScore,
  rulesOf,
  type State,
} from '@iron-curtain/game';

/** A table as the rules screen draws it: the engine's own state, with what the engine says of it. */
export interface CommandExample {
  rules: RulesContext;
  position: State;
  /** The card the USSR has just played and Commands with: outside its reach. */
  played: CardId;
  /** Reachable cards in table order, each with the cost of one USSR cube there. */
  reach: { cardId: CardId; cost: number }[];
}

export interface ScoringExample {
  rules: RulesContext;
  position: State;
  score: RegionScore;
}

/** The default deck's state at the start, with the table replaced by `table`. */
function position(table: PlacedCard[]): { rules: RulesContext; state: State } {
  const setup = parseSetupData({ sides: { '0': 'US', '1': 'USSR' } });
  const state = createState(setup, (cards) => cards);
  state.table = table;
  state.decision = null;
  return { rules: rulesOf(setup), state };
}

const at = (cardId: CardId, x: number, y: number, US: number, USSR: number): PlacedCard => ({
  cardId,
  x,
  y,
  cubes: { US, USSR },
});

/**
 * The USSR has just played Vietnam next to France. It reaches the cards holding its cubes and
 * their neighbours (West Germany at double cost: the US controls it), not France, and not
 * Vietnam itself: no USSR cube lies on or next to either.
 */
export function commandExample(): CommandExample {
  const { rules, state } = position([
    at('europe', 0, 0, 1, 1),
    at('east-germany', 0, -1, 0, 1),
    at('west-germany', 1, 0, 2, 0),
    at('france', 2, 0, 1, 0),
    at('vietnam', 3, 0, 0, 0),
  ]);
  const reachable = reachableBy(state, 'USSR');
  return {
    rules,
    position: state,
    played: 'vietnam',
    reach: state.table
      .filter((p) => reachable.has(p.cardId))
      .map((p) => ({ cardId: p.cardId, cost: commandCost(p.cubes, 'USSR') })),
  };
}

/** The rulebook's Asia example: the US dominates Pakistan, Japan and Vietnam are tied. */
export function scoringExample(): ScoringExample {
  const { rules, state } = position([
    at('europe', 0, 0, 1, 1),
    at('pakistan', 1, 0, 1, 0),
    at('japan', 2, 0, 1, 1),
    at('vietnam', 2, 1, 0, 0),
  ]);
  return { rules, position: state, score: regionScore(rules, state, 'asia') };
}
