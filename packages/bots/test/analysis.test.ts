import { readFileSync } from 'node:fs';
import { legalMoves, type MatchRecord, type Move, otherSeat, viewFor } from '@iron-curtain/game';
import { describe, expect, it } from 'vitest';
import {
  AnalysisFileError,
  analyseDecision,
  analyseRecord,
  analysisLines,
  createRng,
  englishMoveWords,
  MARK_THRESHOLDS,
  markOf,
  matchRecordOf,
  moveWords,
  playGame,
  readAnalysedRecord,
} from '../src/index.ts';
import { RULES, randomPositions, redealHidden } from './support.ts';

const SPEC = {
  seed: 'analysis-fixture',
  seat0Side: 'US' as const,
  players: { '0': { strategy: 'greedy' as const }, '1': { strategy: 'random' as const } },
};
const RECORD = matchRecordOf(SPEC, playGame(SPEC));
const ANALYSIS = analyseRecord(RECORD, { seed: 'fixture', iterations: 40 });

describe('the analyser reads only the deciding seat', () => {
  const positions = ['x', 'y'].flatMap((seed) => randomPositions(`analysis-${seed}`, 7));
  it('judges the view, the full state and a re-dealt full state the same', () => {
    let searched = 0;
    let redeals = 0;
    for (const [i, state] of positions.entries()) {
      const seat = state.decision?.seat;
      if (!seat) continue;
      const played = createRng(`played-${i}`).pick(legalMoves(RULES, state, seat)) as Move;
      const judge = (position: typeof state) =>
        analyseDecision(RULES, position, seat, played, 40, createRng(`judge-${i}`), i);
      const fromView = judge(viewFor(state, seat));
      if (!fromView.forced) searched += 1;
      expect(judge(state)).toEqual(fromView);
      const redealt = redealHidden(state, seat, `analysis-redeal-${i}`);
      expect(judge(redealt)).toEqual(fromView);
      const o = otherSeat(seat);
      if (redealt.hands[o].join() !== state.hands[o].join()) redeals += 1;
    }
    expect(searched).toBeGreaterThan(4);
    // The redeals really moved hidden cards, else the check above proves nothing.
    expect(redeals).toBeGreaterThan(4);
  });
});

describe('a whole record', () => {
  it('has one decision and one US chance per move, in 0..1', () => {
    expect(ANALYSIS.decisions).toHaveLength(RECORD.moves.length);
    expect(ANALYSIS.usChance).toHaveLength(RECORD.moves.length);
    for (const c of ANALYSIS.usChance) expect(c).toBeGreaterThanOrEqual(0);
    for (const c of ANALYSIS.usChance) expect(c).toBeLessThanOrEqual(1);
  });

  it('ends on the result: the US chance after the last move is 1 or 0', () => {
    const usWon = playGame(SPEC).result.winnerSide === 'US';
    expect(ANALYSIS.usChance.at(-1)).toBe(usWon ? 1 : 0);
  });

  it('gives the same analysis for the same record and seed, another for another seed', () => {
    expect(analyseRecord(RECORD, { seed: 'fixture', iterations: 40 })).toEqual(ANALYSIS);
    expect(analyseRecord(RECORD, { seed: 'other', iterations: 40 }).usChance).not.toEqual(
      ANALYSIS.usChance,
    );
  });

  it('marks each decision by the chance it gave away, at the documented thresholds', () => {
    expect(markOf(MARK_THRESHOLDS.inaccuracy - 0.001)).toBe('good');
    expect(markOf(MARK_THRESHOLDS.inaccuracy)).toBe('inaccuracy');
    expect(markOf(MARK_THRESHOLDS.mistake)).toBe('mistake');
    expect(markOf(MARK_THRESHOLDS.blunder)).toBe('blunder');
    for (const d of ANALYSIS.decisions) {
      expect(d.mark).toBe(markOf(d.loss));
      expect(d.loss).toBeCloseTo(d.bestChance - d.playedChance, 10);
    }
  });

  it('prints the marked decisions with the better choice, and both players', () => {
    const lines = analysisLines(RECORD, ANALYSIS);
    const marked = ANALYSIS.decisions.filter((d) => d.mark !== 'good').length;
    expect(lines).toHaveLength(marked + 2);
    for (const line of lines.slice(0, marked)) {
      expect(line).toMatch(/ instead of /);
      // A cell is named by the cards beside it, never by grid coordinates.
      expect(line).not.toMatch(/\(-?\d+, -?\d+\)/);
    }
  });

  it('names a cell by the cards beside it and on which side of them it lies', () => {
    const [state] = randomPositions('beside', 1000);
    const position = structuredClone(state as NonNullable<typeof state>);
    position.table = [
      { cardId: 'europe', x: 0, y: 0, cubes: { US: 1, USSR: 1 } },
      { cardId: 'poland', x: 1, y: 0, cubes: { US: 0, USSR: 0 } },
      { cardId: 'east-germany', x: 2, y: 1, cubes: { US: 0, USSR: 0 } },
    ];
    const words = (cell: { x: number; y: number }) =>
      englishMoveWords(
        RULES,
        moveWords(RULES, position, { move: 'playCard', args: ['hungary', cell] }),
      );
    expect(words({ x: 1, y: 1 })).toBe('Hungary below Poland and left of East Germany');
    expect(words({ x: -1, y: 0 })).toBe('Hungary left of Europe');
    expect(words({ x: 1, y: -1 })).toBe('Hungary above Poland');
    expect(
      moveWords(RULES, position, { move: 'playCard', args: ['hungary', { x: 2, y: 0 }] }),
    ).toEqual({
      kind: 'play',
      card: 'hungary',
      x: 2,
      y: 0,
      beside: [
        { card: 'poland', direction: 'right' },
        { card: 'east-germany', direction: 'above' },
      ],
    });
    // The card an event moves is not its own neighbour.
    expect(
      englishMoveWords(
        RULES,
        moveWords(RULES, position, { move: 'moveCard', args: ['poland', { x: 1, y: 1 }] }),
      ),
    ).toBe('moving Poland left of East Germany');
    // A confirmed draft: its cubes in order, each named as a single cube would be.
    const draft = { move: 'placeCubes' as const, args: [[['poland'], ['europe', 'poland']]] };
    expect(moveWords(RULES, position, draft)).toEqual({
      kind: 'placeAll',
      cubes: [
        { card: 'poland', from: null },
        { card: 'europe', from: 'poland' },
      ],
    });
    expect(englishMoveWords(RULES, moveWords(RULES, position, draft))).toBe(
      'a cube on Poland, a cube on Europe (taken from Poland)',
    );
  });
});

describe('a record of version 2', () => {
  it('is analysed with each confirmed draft judged as played, one decision per move', () => {
    const file = new URL('../../game/test/records/fixed-deal-standard-v2.json', import.meta.url);
    const record = JSON.parse(readFileSync(file, 'utf8')) as MatchRecord;
    expect(record.version).toBe(2);
    const analysis = analyseRecord(record, { seed: 'v2', iterations: 30 });
    expect(analysis.decisions).toHaveLength(record.moves.length);
    const drafts = analysis.decisions.filter((d) => d.played.move === 'placeCubes');
    expect(drafts.length).toBe(record.moves.filter((m) => m.move === 'placeCubes').length);
    for (const d of drafts) {
      const { move, args } = record.moves[d.index] as MatchRecord['moves'][number];
      expect(d.played).toEqual({ move, args });
      if (!d.forced) expect(d.choices.some((c) => c.move.move === 'placeCubes')).toBe(true);
    }
  });
});

describe('record files', () => {
  const saved = JSON.parse(JSON.stringify({ record: RECORD, analysis: ANALYSIS }));
  const codeOf = (json: unknown) => {
    try {
      readAnalysedRecord(json);
      return null;
    } catch (error) {
      return error instanceof AnalysisFileError ? error.code : String(error);
    }
  };

  it('reads a plain record and one saved with its analysis', () => {
    expect(readAnalysedRecord(JSON.parse(JSON.stringify(RECORD))).analysis).toBeNull();
    expect(readAnalysedRecord(saved).analysis).toEqual(ANALYSIS);
  });

  it('refuses a file that is no record', () => {
    expect(codeOf({ moves: 'none' })).toBe('NOT_A_RECORD');
    expect(codeOf({ record: { moves: [] }, analysis: ANALYSIS })).toBe('NOT_A_RECORD');
  });

  it('refuses a malformed analysis', () => {
    const bad = structuredClone(saved);
    bad.analysis.usChance[0] = 7;
    expect(codeOf(bad)).toBe('BAD_ANALYSIS');
  });

  it('refuses an analysis beside a record whose moves were changed', () => {
    const tampered = structuredClone(saved);
    tampered.record.moves[0].args = [tampered.record.moves[0].args[0] === 'US' ? 'USSR' : 'US'];
    expect(codeOf(tampered)).toBe('ANALYSIS_OF_ANOTHER_RECORD');
    const relabelled = structuredClone(saved);
    relabelled.analysis.recordKey = 'ffffffff';
    expect(codeOf(relabelled)).toBe('ANALYSIS_OF_ANOTHER_RECORD');
  });
});
