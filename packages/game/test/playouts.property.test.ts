import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  CUBES_PER_SIDE,
  createState,
  DEFAULT_DECK,
  draftPlacements,
  HIDDEN_CARD,
  indexDeck,
  legalMoves,
  MOVE_NAMES,
  type Move,
  parseSetupData,
  type RulesContext,
  rulesOf,
  type Seat,
  type SetupData,
  type State,
  supplyOf,
  viewFor,
} from '../src/index.ts';

const STRATEGY = indexDeck(DEFAULT_DECK).strategyCards;

/** A random match set-up: any deal, either side for seat 0, any variant. */
const arbitrarySetup: fc.Arbitrary<SetupData> = fc
  .record({
    order: fc.shuffledSubarray(STRATEGY, {
      minLength: STRATEGY.length,
      maxLength: STRATEGY.length,
    }),
    usSeat: fc.constantFrom('0', '1'),
    aftermathCap: fc.constantFrom(3 as const, null),
    finalScoringOrder: fc.constantFrom('standard' as const, 'polish' as const),
  })
  .map(({ order, usSeat, aftermathCap, finalScoringOrder }) => ({
    sides: usSeat === '0' ? { '0': 'US', '1': 'USSR' } : { '0': 'USSR', '1': 'US' },
    variants: { aftermathCap, finalScoringOrder },
    deal: { '0': order.slice(0, 5), '1': order.slice(5, 10), reserve: order.slice(10) },
  }));

const MAX_MOVES = 1000;

/** Plays random legal moves to the end, calling `check` on every state on the way. */
function playout(
  setup: SetupData,
  choices: fc.Stream<number>,
  check: (rules: RulesContext, state: State) => void,
): State {
  const parsed = parseSetupData(setup);
  const rules = rulesOf(parsed);
  const state = createState(parsed, (cards) => cards);
  for (let n = 0; !state.result; n++) {
    if (n >= MAX_MOVES) throw new Error('the game did not end');
    check(rules, state);
    const seat = state.decision?.seat as Seat;
    const moves = legalMoves(rules, state, seat);
    const { value } = choices.next();
    const choice = moves[value % moves.length] as Move;
    const outcome = applyMove(rules, state, seat, choice.move, choice.args);
    if (!outcome.ok) throw new Error(`legal move refused: ${outcome.error}`);
  }
  check(rules, state);
  return state;
}

function checkInvariants(_rules: RulesContext, state: State): void {
  for (const side of ['US', 'USSR'] as const) {
    expect(supplyOf(state, side)).toBeGreaterThanOrEqual(0);
    expect(supplyOf(state, side)).toBeLessThanOrEqual(CUBES_PER_SIDE);
  }
  expect(state.table.every((p) => p.cubes.US >= 0 && p.cubes.USSR >= 0)).toBe(true);
  expect(Math.abs(state.marker)).toBeLessThanOrEqual(8);
  const cards = [
    ...state.hands['0'],
    ...state.hands['1'],
    ...state.reserve,
    ...state.table.map((p) => p.cardId),
  ];
  for (const c of [state.aftermath['0'], state.aftermath['1']]) if (c) cards.push(c);
  expect(cards.sort()).toEqual([...STRATEGY, DEFAULT_DECK.starter].sort());
}

/** What a viewer may see of the hidden zones, and nothing more. */
function checkViews(_rules: RulesContext, state: State): void {
  const revealed = state.finalScoring !== null;
  for (const viewer of ['0', '1', null] as const) {
    const view = viewFor(state, viewer);
    for (const seat of ['0', '1'] as const) {
      const own = viewer === seat;
      expect(view.hands[seat]).toEqual(
        own ? state.hands[seat] : state.hands[seat].map(() => HIDDEN_CARD),
      );
      const aftermath = state.aftermath[seat];
      expect(view.aftermath[seat]).toBe(aftermath && !own && !revealed ? HIDDEN_CARD : aftermath);
    }
    expect(view.reserve).toEqual(state.reserve.map(() => HIDDEN_CARD));
    expect(view.table).toEqual(state.table);
    expect(view.marker).toBe(state.marker);
  }
}

/** Candidate arguments around the current position: the legal ones and plenty of near misses. */
function candidateMoves(state: State): Move[] {
  const xs = state.table.map((p) => p.x);
  const ys = state.table.map((p) => p.y);
  const cells: unknown[] = [{ x: 0.5, y: 0 }, null, 'far'];
  for (let x = Math.min(...xs) - 1; x <= Math.max(...xs) + 1; x++) {
    for (let y = Math.min(...ys) - 1; y <= Math.max(...ys) + 1; y++) cells.push({ x, y });
  }
  const inPlay = [...state.hands['0'], ...state.hands['1'], ...state.table.map((p) => p.cardId)];
  const cards: unknown[] = [...new Set(inPlay), 'atlantis', 7];
  const singles: unknown[] = ['US', 'USSR', 'event', 'command', true, false, 'yes', ...cards];
  const moves: Move[] = [];
  for (const move of MOVE_NAMES) {
    moves.push({ move, args: [] });
    for (const a of singles) moves.push({ move, args: [a] });
    if (move === 'playCard' || move === 'moveCard') {
      for (const card of cards) for (const cell of cells) moves.push({ move, args: [card, cell] });
    }
    if (move === 'placeCube')
      for (const a of cards) for (const b of cards) moves.push({ move, args: [a, b] });
  }
  return moves;
}

function checkLegalMovesAgree(rules: RulesContext, state: State): void {
  const decider = state.decision?.seat as Seat;
  const legal = legalMoves(rules, state, decider);
  const legalKeys = new Set(legal.map((m) => JSON.stringify(m)));
  for (const candidate of candidateMoves(state)) {
    const isLegal = legalKeys.has(JSON.stringify(candidate));
    const outcome = applyMove(
      rules,
      isLegal ? structuredClone(state) : state,
      decider,
      candidate.move,
      candidate.args,
    );
    if (outcome.ok !== isLegal) {
      throw new Error(
        `${JSON.stringify(candidate)}: legalMoves says ${isLegal}, the move says ${outcome.ok}`,
      );
    }
  }
  for (const other of [decider === '0' ? '1' : '0', null, '2']) {
    expect(legalMoves(rules, state, other)).toEqual([]);
    for (const m of legal) expect(applyMove(rules, state, other, m.move, m.args).ok).toBe(false);
  }
}

/**
 * At every placement step, drafts of random cubes (the legal ones and near misses, any number):
 * placeCubes accepts a draft exactly when each cube, in order, is a placeCube that legalMoves
 * lists on the draft before it, and then reaches what those cubes one by one and finishStep
 * reach; a refused draft changes nothing.
 */
function checkDraftsAgree(
  choices: fc.Stream<number>,
  seen: Record<'accepted' | 'refused', number>,
) {
  return (rules: RulesContext, state: State): void => {
    const d = state.decision;
    if (d?.kind !== 'placeCubes') return;
    const seat = d.seat;
    const near = [...state.table.map((p) => p.cardId), 'atlantis'];
    for (let draft = 0; draft < 4; draft++) {
      const singles = structuredClone(state);
      const cubes: unknown[][] = [];
      let legal = true;
      const length = 1 + (choices.next().value % 5);
      for (let i = 0; i < length; i++) {
        const listed = legalMoves(rules, singles, seat).filter((m) => m.move === 'placeCube');
        const pick = choices.next().value;
        // Mostly a listed cube; now and then any card, or one taken from any card.
        const cube =
          pick % 4 !== 0 && listed.length > 0
            ? (listed[pick % listed.length] as Move).args
            : pick % 8 === 0
              ? [near[pick % near.length], near[(pick >> 3) % near.length]]
              : [near[pick % near.length]];
        cubes.push(cube);
        // The step is still open here: the loop stops once a cube ends it.
        if (!listed.some((m) => JSON.stringify(m.args) === JSON.stringify(cube))) {
          legal = false;
          break;
        }
        applyMove(rules, singles, seat, 'placeCube', cube);
        if (singles.decision?.kind !== 'placeCubes' || singles.decision.seat !== seat) {
          // The step ended with this cube: any cube after it is one too many.
          if (i < length - 1) {
            cubes.push(cube);
            legal = false;
          }
          break;
        }
      }
      if (legal && singles.decision?.kind === 'placeCubes' && singles.decision.seat === seat)
        applyMove(rules, singles, seat, 'finishStep', []);
      const confirmed = structuredClone(state);
      const outcome = applyMove(rules, confirmed, seat, 'placeCubes', [cubes]);
      seen[outcome.ok ? 'accepted' : 'refused'] += 1;
      if (outcome.ok !== legal) {
        throw new Error(
          `${JSON.stringify(cubes)}: one by one ${legal ? 'legal' : 'refused'}, as a draft ${outcome.ok ? 'accepted' : outcome.error}`,
        );
      }
      expect(confirmed).toEqual(legal ? singles : state);
      if (legal) expect(draftPlacements(rules, state, seat, cubes)?.accepted).toEqual(cubes);
    }
  };
}

describe('random legal playouts', () => {
  test('never throw, always end, conserve 24 cubes a side and every card, keep the marker in -8..8', () => {
    fc.assert(
      fc.property(arbitrarySetup, fc.infiniteStream(fc.nat()), (setup, choices) => {
        const end = playout(setup, choices, checkInvariants);
        expect(end.result?.winnerSide).toMatch(/^(US|USSR)$/);
        expect(end.decision).toBeNull();
        expect(legalMoves(rulesOf(parseSetupData(setup)), end, '0')).toEqual([]);
        expect(legalMoves(rulesOf(parseSetupData(setup)), end, '1')).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });

  test('never show a hidden card to the other seat or a spectator', () => {
    fc.assert(
      fc.property(arbitrarySetup, fc.infiniteStream(fc.nat()), (setup, choices) => {
        playout(setup, choices, checkViews);
      }),
      { numRuns: 100 },
    );
  });

  test('a confirmed draft is accepted exactly when its cubes are legal one after another', () => {
    const seen = { accepted: 0, refused: 0 };
    fc.assert(
      fc.property(
        arbitrarySetup,
        fc.infiniteStream(fc.nat()),
        fc.infiniteStream(fc.nat()),
        (setup, choices, drafts) => {
          playout(setup, choices, checkDraftsAgree(drafts, seen));
        },
      ),
      { numRuns: 40 },
    );
    // Both answers were put to the test, many times.
    expect(seen.accepted).toBeGreaterThan(100);
    expect(seen.refused).toBeGreaterThan(100);
  });

  test('legalMoves agrees exactly with what the moves accept', () => {
    fc.assert(
      fc.property(arbitrarySetup, fc.infiniteStream(fc.nat()), (setup, choices) => {
        playout(setup, choices, checkLegalMovesAgree);
      }),
      { numRuns: 25 },
    );
  });
});
