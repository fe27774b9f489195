import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  createState,
  DEFAULT_DECK,
  draftPlacements,
  indexDeck,
  legalMoves,
  type Move,
  parseSetupData,
  rulesOf,
  type Seat,
} from '../src/index.ts';
import {
  cubesOn,
  newMatch,
  rulesFor,
  turnOf,
  USSR_SEAT,
  ussrCommandsWithVietnam,
} from './support.ts';

describe('a draft of a placement step', () => {
  test('places on a copy, pays double on a controlled card and re-checks the lead before every cube', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 2, 0]]);
    const before = structuredClone(state);
    const draft = draftPlacements(rulesFor(state), state, USSR_SEAT, [['algeria'], ['algeria']]);
    expect(state).toEqual(before);
    expect(draft?.accepted).toEqual([['algeria'], ['algeria']]);
    // 2 for the first cube (the US controls Algeria), 1 for the second: 1 of 4 left.
    expect(draft?.state.decision).toMatchObject({ kind: 'placeCubes', remaining: 1 });
    expect(draft?.complete).toBe(false);
    expect(cubesOn(draft?.state as typeof state, 'algeria')).toEqual({ US: 2, USSR: 2 });
  });

  test('lists what may be drafted next with legalMoves, and only finishStep once complete', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 4, 0]]);
    const rules = rulesFor(state);
    const draft = draftPlacements(rules, state, USSR_SEAT, [['europe'], ['europe'], ['europe']]);
    // One point left: Algeria (controlled, 2 points) is no longer on offer.
    const next = legalMoves(rules, draft?.state as typeof state, USSR_SEAT);
    expect(next.map((m) => m.args[0])).not.toContain('algeria');
    expect(next).toContainEqual({ move: 'placeCube', args: ['vietnam'] });
    const full = draftPlacements(rules, state, USSR_SEAT, [
      ['europe'],
      ['europe'],
      ['europe'],
      ['vietnam'],
      ['vietnam'],
    ]);
    expect(full?.complete).toBe(true);
    expect(full?.accepted).toHaveLength(4);
    expect(legalMoves(rules, full?.state as typeof state, USSR_SEAT)).toEqual([
      { move: 'finishStep', args: [] },
    ]);
    // The step is left open: nothing after it (the US's next turn) has begun on the copy.
    expect(full?.state.decision).toMatchObject({ kind: 'placeCubes', seat: USSR_SEAT });
  });

  test('stops at the first cube the rules refuse and drops the rest', () => {
    const state = ussrCommandsWithVietnam([
      ['algeria', 1, 0],
      ['nigeria', 2, 0],
    ]);
    const draft = draftPlacements(rulesFor(state), state, USSR_SEAT, [
      ['algeria'],
      ['nigeria'],
      ['europe'],
    ]);
    expect(draft?.accepted).toEqual([['algeria']]);
  });

  test('takes cubes back from the side’s own cards once its supply is empty', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 0, 22]]);
    const rules = rulesFor(state);
    const draft = draftPlacements(rules, state, USSR_SEAT, [['europe'], ['europe', 'algeria']]);
    expect(draft?.accepted).toEqual([['europe'], ['europe', 'algeria']]);
    expect(cubesOn(draft?.state as typeof state, 'algeria')).toEqual({ US: 0, USSR: 21 });
    expect(legalMoves(rules, draft?.state as typeof state, USSR_SEAT)).toContainEqual({
      move: 'placeCube',
      args: ['vietnam', 'europe'],
    });
  });

  test('is null for a seat with no placement step to decide', () => {
    const state = ussrCommandsWithVietnam([]);
    expect(draftPlacements(rulesFor(state), state, '0', [])).toBeNull();
    const playing = turnOf(newMatch(), 'US');
    expect(draftPlacements(rulesFor(playing), playing, '0', [])).toBeNull();
  });

  test('reaches the table that playing the same cubes reaches, in random games', () => {
    const strategy = indexDeck(DEFAULT_DECK).strategyCards;
    fc.assert(
      fc.property(
        fc.shuffledSubarray(strategy, { minLength: strategy.length, maxLength: strategy.length }),
        fc.infiniteStream(fc.nat()),
        (order, choices) => {
          const setup = parseSetupData({
            sides: { '0': 'US', '1': 'USSR' },
            deal: { '0': order.slice(0, 5), '1': order.slice(5, 10), reserve: order.slice(10) },
          });
          const rules = rulesOf(setup);
          const state = createState(setup, (cards) => cards);
          let steps = 0;
          while (!state.result && steps < 40) {
            const seat = state.decision?.seat as Seat;
            if (state.decision?.kind === 'placeCubes') {
              steps++;
              // Play random cubes on a copy, one move at a time, and draft the same cubes.
              const played = structuredClone(state);
              const cubes: unknown[][] = [];
              for (;;) {
                const moves = legalMoves(rules, played, seat).filter((m) => m.move === 'placeCube');
                if (played.decision?.kind !== 'placeCubes' || moves.length === 0) break;
                const drafted = draftPlacements(rules, state, seat, cubes);
                const fromDraft = legalMoves(rules, drafted?.state as typeof state, seat);
                expect(fromDraft).toEqual(legalMoves(rules, played, seat));
                const { value } = choices.next();
                const move = moves[value % moves.length] as Move;
                cubes.push(move.args);
                applyMove(rules, played, seat, move.move, move.args);
                if (played.decision?.kind !== 'placeCubes' || played.decision.seat !== seat) break;
              }
              const draft = draftPlacements(rules, state, seat, cubes);
              expect(draft?.accepted).toEqual(cubes);
              const tableOf = (s: typeof state) =>
                s.table.map((p) => ({ cardId: p.cardId, cubes: p.cubes }));
              // The table right after the last cube: the played copy may have gone on (a scoring
              // needs a new card, so no cube moves after the step on the same move).
              expect(tableOf(draft?.state as typeof state)).toEqual(tableOf(played));
            }
            const moves = legalMoves(rules, state, seat);
            const { value } = choices.next();
            const move = moves[value % moves.length] as Move;
            applyMove(rules, state, seat, move.move, move.args);
          }
        },
      ),
      { numRuns: 30 },
    );
  });
});
