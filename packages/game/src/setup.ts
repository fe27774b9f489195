import { z } from 'zod';
import type { Deck } from './deck/deck.ts';
import { DEFAULT_DECK } from './deck/index.ts';
import { DeckError, loadDeck } from './deck/schema.ts';
import { indexDeck } from './deck-index.ts';
import { deckRef, type RulesContext } from './rules-context.ts';
import { HAND_SIZE, PLAYS_PER_ROUND, type State, seatOf } from './state.ts';
import type { CardId, Seat, Side, Variants } from './types.ts';
import { STANDARD_VARIANTS, variantsSchema } from './variants.ts';

const side = z.enum(['US', 'USSR']);
const cardIds = (n: number) => z.array(z.string()).length(n, `must list exactly ${n} card ids`);
const RESERVE_SIZE = PLAYS_PER_ROUND;

/** A fixed deal, for tests, tutorials and replays only: online matches are dealt from the server's secret seed. */
export const dealSchema = z.strictObject({
  '0': cardIds(HAND_SIZE),
  '1': cardIds(HAND_SIZE),
  reserve: cardIds(RESERVE_SIZE),
});
export type Deal = z.infer<typeof dealSchema>;

export const setupDataSchema = z.strictObject({
  sides: z
    .strictObject({ '0': side, '1': side })
    .refine((s) => s['0'] !== s['1'], 'the two seats must play different sides'),
  /** A deck file (JSON); the default deck when absent. */
  deck: z.unknown().optional(),
  variants: z._default(variantsSchema, STANDARD_VARIANTS),
  deal: dealSchema.optional(),
});
export type SetupData = z.input<typeof setupDataSchema>;

export interface Setup {
  sides: Record<Seat, Side>;
  deck: Deck;
  variants: Variants;
  deal: Deal | undefined;
}

export class SetupError extends Error {
  override name = 'SetupError';
}

function checkDeal(deal: Deal, deck: Deck): void {
  const strategy = new Set(indexDeck(deck).strategyCards);
  const all = [...deal['0'], ...deal['1'], ...deal.reserve];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const id of all) {
    if (!strategy.has(id)) problems.push(`'${id}' is not a strategy card of deck '${deck.id}'`);
    else if (seen.has(id)) problems.push(`'${id}' is dealt twice`);
    seen.add(id);
  }
  if (problems.length > 0) throw new SetupError(`setupData.deal: ${problems.join('; ')}`);
}

/** Validates boardgame.io setupData; throws a SetupError naming the bad field. */
export function parseSetupData(data: unknown): Setup {
  const parsed = setupDataSchema.safeParse(data ?? {});
  if (!parsed.success) {
    const first = parsed.error.issues
      .map((i) => `setupData${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`)
      .join('; ');
    throw new SetupError(first);
  }
  let deck = DEFAULT_DECK;
  if (parsed.data.deck !== undefined) {
    try {
      deck = loadDeck(parsed.data.deck);
    } catch (error) {
      if (error instanceof DeckError) {
        throw new SetupError(
          `setupData.deck: ${error.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        );
      }
      throw error;
    }
  }
  const { deal } = parsed.data;
  if (deal) checkDeal(deal, deck);
  return { sides: parsed.data.sides, deck, variants: parsed.data.variants, deal };
}

/** The context a match set up so is played under. */
export const rulesOf = (setup: Setup): RulesContext => ({
  deck: setup.deck,
  variants: setup.variants,
});

/** The state at the start of a match; `shuffle` deals when no fixed deal is given. */
export function createState(setup: Setup, shuffle: (cards: CardId[]) => CardId[]): State {
  const { deck } = setup;
  let deal = setup.deal;
  if (!deal) {
    const cards = shuffle([...indexDeck(deck).strategyCards]);
    deal = {
      '0': cards.slice(0, HAND_SIZE),
      '1': cards.slice(HAND_SIZE, 2 * HAND_SIZE),
      reserve: cards.slice(2 * HAND_SIZE),
    };
  }
  const state: State = {
    deck: deckRef(deck),
    sides: setup.sides,
    hands: { '0': [...deal['0']], '1': [...deal['1']] },
    reserve: [...deal.reserve],
    aftermath: { '0': null, '1': null },
    table: [{ cardId: deck.starter, x: 0, y: 0, cubes: { US: 1, USSR: 1 } }],
    marker: 0,
    round: 1,
    plays: 0,
    firstSeat: null,
    decision: null,
    queue: [],
    scoredRegions: [],
    finalScoring: null,
    result: null,
  };
  state.decision = { kind: 'chooseFirstPlayer', seat: seatOf(state, 'USSR') };
  return state;
}
