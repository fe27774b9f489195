import { describe, expect, test } from 'vitest';
import { applyMove, type LogEntry, type State } from '../src/index.ts';
import {
  cubesOn,
  newMatch,
  play,
  refused,
  rulesFor,
  turnOf,
  US_SEAT,
  USSR_SEAT,
  ussrCommandsWithVietnam,
} from './support.ts';

/** The same cubes played one move at a time, then finishStep unless the last cube ended the step. */
function oneByOne(state: State, cubes: unknown[][]): { state: State; log: LogEntry[] } {
  const copy = structuredClone(state);
  const log: LogEntry[] = [];
  for (const args of cubes) log.push(...play(copy, 'USSR', 'placeCube', ...args));
  if (copy.decision?.kind === 'placeCubes' && copy.decision.seat === USSR_SEAT)
    log.push(...play(copy, 'USSR', 'finishStep'));
  return { state: copy, log };
}

describe('a confirmed draft (placeCubes)', () => {
  test('places every cube and ends the step, exactly as its cubes one by one and finishStep do', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 2, 0]]);
    const cubes = [['algeria'], ['europe']];
    const expected = oneByOne(state, cubes);
    const log = play(state, 'USSR', 'placeCubes', cubes);
    expect(log).toEqual(expected.log);
    expect(log.at(-1)).toEqual({ type: 'finishStep', side: 'USSR' });
    expect(state).toEqual(expected.state);
    expect(cubesOn(state, 'algeria')).toEqual({ US: 2, USSR: 1 });
    // The step is over: the US plays next.
    expect(state.decision).toEqual({ kind: 'playCard', seat: US_SEAT });
  });

  test('that spends everything ends the step without a finishStep entry', () => {
    const state = ussrCommandsWithVietnam([]);
    const cubes = [['europe'], ['europe'], ['vietnam'], ['vietnam']];
    const expected = oneByOne(state, cubes);
    const log = play(state, 'USSR', 'placeCubes', cubes);
    expect(log).toEqual(expected.log);
    expect(log.some((e) => e.type === 'finishStep')).toBe(false);
    expect(state).toEqual(expected.state);
  });

  test('takes cubes back from the side’s own cards once its supply is empty', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 0, 22]]);
    const cubes = [['europe'], ['europe', 'algeria']];
    const expected = oneByOne(state, cubes);
    play(state, 'USSR', 'placeCubes', cubes);
    expect(state).toEqual(expected.state);
    expect(cubesOn(state, 'algeria')).toEqual({ US: 0, USSR: 21 });
  });

  test.each([
    ['first', [['atlantis'], ['europe'], ['europe']], 1],
    ['in the middle', [['europe'], ['nigeria'], ['europe']], 2],
    ['last', [['europe'], ['europe'], ['nigeria']], 3],
  ])('with an illegal cube %s places nothing and names that cube', (_, cubes, at) => {
    // Nigeria lies out of the USSR's reach: no USSR cube on it or beside it.
    const state = ussrCommandsWithVietnam([['nigeria', 3, 0]]);
    const reason = refused(state, USSR_SEAT, 'placeCubes', cubes);
    expect(reason.startsWith(`cube ${at} of 3 (${JSON.stringify(cubes[at - 1])}): `)).toBe(true);
    expect(reason).toContain('you cannot place a cube on that card now');
    expect(reason).toMatch(/nothing was placed$/);
  });

  test('with more cubes than the step can pay for places nothing and names the first too many', () => {
    const state = ussrCommandsWithVietnam([]);
    const reason = refused(state, USSR_SEAT, 'placeCubes', [
      ['europe'],
      ['europe'],
      ['europe'],
      ['europe'],
      ['europe'],
    ]);
    expect(reason).toMatch(/^cube 5 of 5 .*nothing left to place/);
  });

  test('that takes a cube back while the supply lasts places nothing', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 0, 2]]);
    const reason = refused(state, USSR_SEAT, 'placeCubes', [['europe'], ['europe', 'algeria']]);
    expect(reason).toMatch(/^cube 2 of 2 .*take cubes back only when your supply is empty/);
  });

  test('is refused when malformed, empty, out of turn or outside a placement step', () => {
    const state = ussrCommandsWithVietnam([]);
    expect(refused(state, USSR_SEAT, 'placeCubes', [])).toMatch(/one or more cubes/);
    expect(refused(state, USSR_SEAT, 'placeCubes', 'europe')).toMatch(/one or more cubes/);
    expect(refused(state, USSR_SEAT, 'placeCubes', [['europe'], 'europe'])).toMatch(
      /^cube 2 of 2 \("europe"\): a cube is \[card\]/,
    );
    expect(refused(state, USSR_SEAT, 'placeCubes', [['europe']], 'extra')).toMatch(
      /takes 1 argument/,
    );
    expect(refused(state, US_SEAT, 'placeCubes', [['europe']])).toMatch(/not seat 0's decision/);
    const playing = turnOf(newMatch(), 'US');
    expect(refused(playing, US_SEAT, 'placeCubes', [['europe']])).toMatch(/not allowed now/);
  });

  test('leaves the state alone when refused, even through a rules context reused across calls', () => {
    const state = ussrCommandsWithVietnam([['nigeria', 3, 0]]);
    const before = structuredClone(state);
    const outcome = applyMove(rulesFor(state), state, USSR_SEAT, 'placeCubes', [
      [['europe'], ['europe'], ['nigeria']],
    ]);
    expect(outcome.ok).toBe(false);
    expect(state).toEqual(before);
    // The same cubes without the bad one go through afterwards.
    expect(
      applyMove(rulesFor(state), state, USSR_SEAT, 'placeCubes', [[['europe'], ['europe']]]).ok,
    ).toBe(true);
  });
});
