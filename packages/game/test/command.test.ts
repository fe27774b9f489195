import { describe, expect, test } from 'vitest';
import { deckFileOf, legalMoves, supplyOf } from '../src/index.ts';
import {
  cubesOn,
  DECK_VERSION_1,
  hand,
  lay,
  newMatch,
  play,
  refused,
  rulesFor,
  turnOf,
  US_SEAT,
  USSR_SEAT,
  ussrCommandsWithVietnam,
} from './support.ts';

describe('Command restrictions', () => {
  test('only cards with one of your cubes or next to one; what is reachable is fixed at the start', () => {
    const state = ussrCommandsWithVietnam([
      ['algeria', 1, 0],
      ['nigeria', 2, 0],
    ]);
    expect(state.decision).toMatchObject({ targets: ['europe', 'algeria', 'vietnam'] });

    play(state, 'USSR', 'placeCube', 'algeria');
    expect(refused(state, USSR_SEAT, 'placeCube', 'nigeria')).toMatch(/cannot place/);
    expect(legalMoves(rulesFor(state), state, USSR_SEAT).some((m) => m.args[0] === 'nigeria')).toBe(
      false,
    );
  });

  test('fewer cubes than the command value are allowed', () => {
    const state = ussrCommandsWithVietnam([]);
    play(state, 'USSR', 'placeCube', 'europe');
    play(state, 'USSR', 'finishStep');
    expect(cubesOn(state, 'europe')).toEqual({ US: 1, USSR: 2 });
    expect(state.decision).toEqual({ kind: 'playCard', seat: US_SEAT });
  });

  test('a controlled card costs 2 per cube, re-checked before every cube', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 4, 0]]);
    const costs = [
      ...play(state, 'USSR', 'placeCube', 'algeria'),
      ...play(state, 'USSR', 'placeCube', 'algeria'),
    ].flatMap((e) => (e.type === 'place' ? [e.cost] : []));
    expect(costs).toEqual([2, 2]);
    expect(cubesOn(state, 'algeria')).toEqual({ US: 4, USSR: 2 });
    expect(state.decision).toEqual({ kind: 'playCard', seat: US_SEAT });
  });

  test('with one point left, a controlled card cannot be paid for', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 2, 0]]);
    play(state, 'USSR', 'placeCube', 'europe');
    play(state, 'USSR', 'placeCube', 'europe');
    play(state, 'USSR', 'placeCube', 'europe');
    expect(refused(state, USSR_SEAT, 'placeCube', 'algeria')).toMatch(/cannot place/);
    expect(legalMoves(rulesFor(state), state, USSR_SEAT).map((m) => m.args[0])).not.toContain(
      'algeria',
    );
  });

  test('with an empty supply, cubes are taken back from your own cards and placed again', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 0, 23]]);
    expect(supplyOf(state, 'USSR')).toBe(0);

    expect(refused(state, USSR_SEAT, 'placeCube', 'europe')).toMatch(/supply is empty/);
    expect(refused(state, USSR_SEAT, 'placeCube', 'europe', 'europe')).toMatch(/supply is empty/);
    expect(refused(state, USSR_SEAT, 'placeCube', 'europe', 'vietnam')).toMatch(/supply is empty/);
    expect(legalMoves(rulesFor(state), state, USSR_SEAT)).toContainEqual({
      move: 'placeCube',
      args: ['europe', 'algeria'],
    });

    const log = play(state, 'USSR', 'placeCube', 'europe', 'algeria');
    expect(log).toContainEqual(
      expect.objectContaining({ type: 'place', cardId: 'europe', from: 'algeria' }),
    );
    expect(cubesOn(state, 'europe')).toEqual({ US: 1, USSR: 2 });
    expect(cubesOn(state, 'algeria')).toEqual({ US: 0, USSR: 22 });
    expect(supplyOf(state, 'USSR')).toBe(0);
  });

  test('while the supply has cubes, none may be taken back', () => {
    const state = ussrCommandsWithVietnam([['algeria', 1, 0, 0, 3]]);
    expect(refused(state, USSR_SEAT, 'placeCube', 'europe', 'algeria')).toMatch(
      /only when your supply is empty/,
    );
  });
});

describe('events of the other side', () => {
  test('the opponent decides on its event first, then the active player Commands', () => {
    // Chile's event in version 1 is `gain 1`.
    const state = turnOf(newMatch({ deck: deckFileOf(DECK_VERSION_1) }), 'US');
    hand(state, US_SEAT, ['chile']);
    play(state, 'US', 'playCard', 'chile', { x: 1, y: 0 });
    expect(state.decision).toEqual({ kind: 'decideEvent', seat: USSR_SEAT, cardId: 'chile' });
    expect(refused(state, US_SEAT, 'decideEvent', true)).toMatch(/not seat 0's decision/);
    expect(refused(state, US_SEAT, 'chooseAction', 'event')).toMatch(/not seat 0's decision/);

    play(state, 'USSR', 'decideEvent', true);
    expect(state.marker).toBe(-1);
    expect(state.decision).toMatchObject({
      kind: 'placeCubes',
      seat: US_SEAT,
      mode: 'command',
      remaining: 1,
    });
  });

  test('declining the event leaves only the Command', () => {
    const state = turnOf(newMatch(), 'US');
    hand(state, US_SEAT, ['chile']);
    play(state, 'US', 'playCard', 'chile', { x: 1, y: 0 });
    play(state, 'USSR', 'decideEvent', false);
    expect(state.marker).toBe(0);
    expect(state.decision).toMatchObject({ kind: 'placeCubes', seat: US_SEAT });
  });
});

describe('remove', () => {
  test('takes up to N of the opponent’s cubes from the named cards back to its supply', () => {
    const state = turnOf(
      lay(newMatch(), [
        ['west-germany', 1, 0, 2, 0],
        ['algeria', 0, 1, 3, 0],
      ]),
      'USSR',
    );
    hand(state, USSR_SEAT, ['hungary']);
    play(state, 'USSR', 'playCard', 'hungary', { x: -1, y: 0 });
    play(state, 'USSR', 'chooseAction', 'event');
    expect(refused(state, USSR_SEAT, 'removeCube', 'algeria')).toMatch(/cannot remove/);
    expect(refused(state, USSR_SEAT, 'removeCube', 'hungary')).toMatch(/cannot remove/);
    play(state, 'USSR', 'removeCube', 'west-germany');
    play(state, 'USSR', 'removeCube', 'europe');
    expect(cubesOn(state, 'west-germany')).toEqual({ US: 1, USSR: 0 });
    expect(cubesOn(state, 'europe')).toEqual({ US: 0, USSR: 1 });
    expect(supplyOf(state, 'US')).toBe(24 - 1 - 3);
    expect(state.decision).toEqual({ kind: 'playCard', seat: US_SEAT });
  });
});
