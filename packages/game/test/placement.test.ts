import { describe, expect, test } from 'vitest';
import { type Cell, legalCells, legalMoves } from '../src/index.ts';
import {
  hand,
  lay,
  newMatch,
  play,
  refused,
  rulesFor,
  turnOf,
  US_SEAT,
  USSR_SEAT,
} from './support.ts';

const sorted = (cells: Cell[]) => [...cells].sort((a, b) => a.x - b.x || a.y - b.y);

describe('placing a card', () => {
  test('must go next to a card of its own region when such a cell is free', () => {
    const state = lay(newMatch(), [['pakistan', 1, 0]]);
    expect(sorted(legalCells(rulesFor(state), state, 'japan'))).toEqual([
      { x: 1, y: -1 },
      { x: 1, y: 1 },
      { x: 2, y: 0 },
    ]);
  });

  test('the first card of its region may go next to any card', () => {
    const state = lay(newMatch(), [['pakistan', 1, 0]]);
    expect(sorted(legalCells(rulesFor(state), state, 'cuba'))).toEqual([
      { x: -1, y: 0 },
      { x: 0, y: -1 },
      { x: 0, y: 1 },
      { x: 1, y: -1 },
      { x: 1, y: 1 },
      { x: 2, y: 0 },
    ]);
  });

  test('when every cell next to its region is taken, it may go next to any card', () => {
    const state = lay(newMatch(), [
      ['pakistan', 1, 0],
      ['cuba', 2, 0],
      ['iran', 1, 1],
      ['chile', 1, -1],
    ]);
    const cells = legalCells(rulesFor(state), state, 'japan');
    expect(cells).toContainEqual({ x: -1, y: 0 });
    expect(cells).toContainEqual({ x: 3, y: 0 });
    expect(cells).toHaveLength(8);
  });

  test('a table stretched far from the starter lists the same cells, in any order of calls', () => {
    // A line of 18 cards east of the starter, then a small table: the second call must not
    // see cells of the first.
    const ids = [
      'east-germany',
      'poland',
      'hungary',
      'west-germany',
      'france',
      'iran',
      'israel',
      'pakistan',
      'japan',
      'vietnam',
      'south-africa',
      'zaire',
      'algeria',
      'nigeria',
      'cuba',
      'panama',
      'chile',
      'brazil',
    ] as const;
    const long = lay(
      newMatch(),
      ids.map((id, i) => [id, i + 1, 0] as [string, number, number]),
    );
    // Brazil moving: next to Chile, its own cell still taken.
    expect(sorted(legalCells(rulesFor(long), long, 'brazil', true))).toEqual([
      { x: 17, y: -1 },
      { x: 17, y: 1 },
    ]);
    const small = lay(newMatch(), [['pakistan', 1, 0]]);
    expect(sorted(legalCells(rulesFor(small), small, 'japan'))).toEqual([
      { x: 1, y: -1 },
      { x: 1, y: 1 },
      { x: 2, y: 0 },
    ]);
  });

  test('diagonals never count: not for adjacency, not for the region rule', () => {
    const state = turnOf(lay(newMatch(), [['pakistan', 1, 0]]), 'US');
    hand(state, US_SEAT, ['japan', 'cuba']);
    expect(refused(state, US_SEAT, 'playCard', 'japan', { x: 0, y: 1 })).toMatch(
      /not a legal place/,
    );
    expect(refused(state, US_SEAT, 'playCard', 'cuba', { x: 2, y: 1 })).toMatch(
      /not a legal place/,
    );
    play(state, 'US', 'playCard', 'japan', { x: 1, y: 1 });
  });

  test('refuses a card not in hand, a card of the other hand, a malformed cell', () => {
    const state = turnOf(newMatch(), 'US');
    hand(state, US_SEAT, ['japan']);
    hand(state, USSR_SEAT, ['cuba']);
    expect(refused(state, US_SEAT, 'playCard', 'cuba', { x: 1, y: 0 })).toMatch(/not in your hand/);
    expect(refused(state, US_SEAT, 'playCard', 'japan', { x: 1.5, y: 0 })).toMatch(/whole numbers/);
    expect(refused(state, US_SEAT, 'playCard', 'japan')).toMatch(/takes 2 argument/);
    expect(refused(state, US_SEAT, 'playCard', 'japan', { x: 0, y: 0 })).toMatch(
      /not a legal place/,
    );
    expect(refused(state, USSR_SEAT, 'playCard', 'cuba', { x: 1, y: 0 })).toMatch(
      /not seat 1's decision/,
    );
  });
});

describe('moving a card by an event (Israel moves Iran)', () => {
  function israelEvent() {
    const state = turnOf(newMatch(), 'US');
    hand(state, US_SEAT, ['israel']);
    lay(state, [['iran', 0, 1, 0, 2]]);
    play(state, 'US', 'playCard', 'israel', { x: 1, y: 1 });
    play(state, 'US', 'chooseAction', 'event');
    return state;
  }

  test('Iran must go next to the other Middle East card when it can', () => {
    const state = israelEvent();
    const cells = legalMoves(rulesFor(state), state, US_SEAT).flatMap((m) =>
      m.move === 'moveCard' ? [m.args[1] as Cell] : [],
    );
    expect(sorted(cells)).toEqual([
      { x: 1, y: 0 },
      { x: 1, y: 2 },
      { x: 2, y: 1 },
    ]);
    expect(refused(state, US_SEAT, 'moveCard', 'iran', { x: -1, y: 0 })).toMatch(
      /not a legal place/,
    );
    expect(refused(state, US_SEAT, 'moveCard', 'iran', { x: 0, y: 1 })).toMatch(
      /not a legal place/,
    );
    expect(refused(state, US_SEAT, 'moveCard', 'israel', { x: 2, y: 1 })).toMatch(
      /cannot be moved/,
    );

    play(state, 'US', 'moveCard', 'iran', { x: 2, y: 1 });
    expect(state.table.find((p) => p.cardId === 'iran')).toMatchObject({
      x: 2,
      y: 1,
      cubes: { US: 0, USSR: 2 },
    });
    expect(state.decision).toMatchObject({
      kind: 'placeCubes',
      mode: 'infiltrate',
      targets: ['iran', 'israel'],
    });
  });

  test('the move may be declined, and the event goes on', () => {
    const state = israelEvent();
    play(state, 'US', 'finishStep');
    expect(state.table.find((p) => p.cardId === 'iran')).toMatchObject({ x: 0, y: 1 });
    expect(state.decision).toMatchObject({ kind: 'placeCubes', mode: 'infiltrate' });
  });

  test('with Israel boxed in, Iran may go next to any other card', () => {
    const state = israelEvent();
    lay(state, [
      ['chile', 2, 1],
      ['brazil', 1, 2],
      ['zaire', 1, 0],
    ]);
    const cells = legalMoves(rulesFor(state), state, US_SEAT).flatMap((m) =>
      m.move === 'moveCard' ? [m.args[1] as Cell] : [],
    );
    expect(cells).toContainEqual({ x: -1, y: 0 });
    expect(cells).not.toContainEqual({ x: 0, y: 1 });
  });
});
