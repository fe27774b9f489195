import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_DECK,
  describeLogEntry,
  type MatchRecord,
  matchRecordSchema,
  publicView,
  ReplayError,
  replay,
  replaySteps,
} from '../src/index.ts';
import { DECK_VERSION_1 } from './support.ts';

const dir = join(import.meta.dirname, 'records');
const records = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((file) => ({
    file,
    record: JSON.parse(readFileSync(join(dir, file), 'utf8')) as MatchRecord,
  }));

describe('recorded games replay to the same end (regression snapshots)', () => {
  test.each(records)('$file', ({ record }) => {
    const { state, rules, log, final } = replay(record);
    expect(final.ctx.gameover).toBeDefined();
    expect({
      end: publicView(state),
      finalScoring: state.finalScoring,
      log: log.map((entry) => describeLogEntry(entry, rules.deck)),
    }).toMatchSnapshot();
  });
});

describe('replay refuses what the game would refuse', () => {
  const [first] = records;
  if (!first) throw new Error('no records');

  test('an illegal move names its index and the reason', () => {
    const moves = [...first.record.moves];
    moves.splice(3, 0, { playerID: '0', move: 'chooseFirstPlayer', args: ['US'] });
    expect(() => replay({ ...first.record, moves })).toThrow(ReplayError);
    expect(() => replay({ ...first.record, moves })).toThrow(/^move 3: /);
  });

  test('a record with neither seed nor deal cannot be replayed', () => {
    const { deal: _deal, ...setupData } = first.record.setupData;
    expect(() => replay({ setupData, moves: [] })).toThrow(/a seed or a fixed deal/);
  });
});

describe('the players’ names in a record', () => {
  const [first] = records;
  if (!first) throw new Error('no records');

  test('a record saved before names were recorded still loads and replays', () => {
    // The stored fixtures predate the names field: exactly what an old export looks like.
    expect('names' in first.record).toBe(false);
    expect(matchRecordSchema.parse(first.record).names).toBeUndefined();
    expect(replay(first.record).final.ctx.gameover).toBeDefined();
  });

  test('names travel with the record, and a blank or missing one is refused', () => {
    const named = { ...first.record, names: { '0': 'Ann', '1': 'Boris' } };
    expect(matchRecordSchema.parse(named).names).toEqual({ '0': 'Ann', '1': 'Boris' });
    expect(replay(named).final.ctx.gameover).toBeDefined();
    expect(matchRecordSchema.safeParse({ ...named, names: { '0': ' ', '1': 'B' } }).success).toBe(
      false,
    );
    expect(matchRecordSchema.safeParse({ ...named, names: { '0': 'Ann' } }).success).toBe(false);
  });
});

describe('records made with an older version of the default deck', () => {
  test('a version 1 record replays with version 1 after the default became version 2', () => {
    // The fixtures carry their deck file, as every exported record does.
    const [first] = records;
    if (!first) throw new Error('no records');
    expect(DEFAULT_DECK.version).toBe('2');
    const { rules, final } = replay(first.record);
    expect(rules.deck.hash).toBe(DECK_VERSION_1.hash);
    expect(final.ctx.gameover).toBeDefined();
  });
});

describe('replaySteps', () => {
  test('yields the start and the position after every move, ending where replay ends', () => {
    const [first] = records;
    if (!first) throw new Error('no records');
    const steps = [...replaySteps(first.record)];
    expect(steps).toHaveLength(first.record.moves.length + 1);
    expect(steps.map((s) => s.index)).toEqual([-1, ...first.record.moves.map((_, i) => i)]);
    expect(steps.at(-1)?.state).toEqual(replay(first.record).state);
    expect(steps[0]?.state.table).toHaveLength(1);
  });
});
