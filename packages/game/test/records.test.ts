import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_DECK,
  describeLogEntry,
  type MatchRecord,
  matchRecordSchema,
  publicView,
  RECORD_VERSION,
  ReplayError,
  replay,
  replaySteps,
} from '../src/index.ts';
import { asConfirmedDrafts } from './drafted-records.ts';
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

const recordNamed = (file: string): MatchRecord => {
  const found = records.find((r) => r.file === file);
  if (!found) throw new Error(`no record ${file}`);
  return found.record;
};

describe('the record format’s version', () => {
  const v1 = recordNamed('fixed-deal-standard.json');
  const v2 = recordNamed('fixed-deal-standard-v2.json');

  test('a version 1 record (no version, a move per cube) still replays to its end', () => {
    expect('version' in v1).toBe(false);
    expect(v1.moves.some((m) => m.move === 'placeCube')).toBe(true);
    expect(replay(v1).final.ctx.gameover).toBeDefined();
  });

  test('a version 2 record with confirmed drafts replays to the same end and log as its version 1 twin', () => {
    expect(v2.version).toBe(RECORD_VERSION);
    const drafts = v2.moves.filter((m) => m.move === 'placeCubes');
    expect(drafts.length).toBeGreaterThan(10);
    expect(v2.moves.length).toBeLessThan(v1.moves.length);
    const one = replay(v1);
    const two = replay(v2);
    expect(two.final.G).toEqual(one.final.G);
    expect(two.final.ctx.gameover).toEqual(one.final.ctx.gameover);
    expect(two.log).toEqual(one.log);
  });

  test.each(records.filter((r) => !('version' in r.record)))(
    'every version 1 record, its drafts joined into placeCubes moves, replays to the same end: $file',
    ({ record }) => {
      const drafted = asConfirmedDrafts(record);
      expect(replay(drafted).final.G).toEqual(replay(record).final.G);
      expect(replay(drafted).log).toEqual(replay(record).log);
    },
  );

  test('a record without a version or of version 1 may not hold a placeCubes move', () => {
    const { version: _, ...unversioned } = v2;
    for (const old of [unversioned, { ...v2, version: 1 }]) {
      const parsed = matchRecordSchema.safeParse(old);
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('placeCubes moves need record version 2');
    }
  });

  test('a record of a version newer than this app reads is refused, saying so', () => {
    const parsed = matchRecordSchema.safeParse({ ...v2, version: 3 });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(/this app reads no newer one/);
  });

  test('an illegal cube inside a confirmed draft names the move and the cube', () => {
    const at = v2.moves.findIndex((m) => m.move === 'placeCubes');
    const moves = [...v2.moves];
    const draft = moves[at] as (typeof moves)[number];
    moves[at] = { ...draft, args: [[...(draft.args[0] as unknown[][]), ['atlantis']]] };
    expect(() => replay({ ...v2, moves })).toThrow(
      new RegExp(`^move ${at}: cube \\d+ of \\d+ \\(\\["atlantis"\\]\\)`),
    );
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
