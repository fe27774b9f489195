import { z } from 'zod';
import { ironCurtainFor } from './game.ts';
import { type FullState, initialFull, reducerFor, stepMove } from './reducer-steps.ts';
import type { RulesContext } from './rules-context.ts';
import { setupDataSchema } from './setup.ts';
import type { State } from './state.ts';
import { type LogEntry, MOVE_NAMES, type Seat } from './types.ts';

export const moveRecordSchema = z.strictObject({
  playerID: z.enum(['0', '1']),
  move: z.enum(MOVE_NAMES as [string, ...string[]]),
  args: z.array(z.unknown()),
});

const playerName = z.string().trim().min(1).max(64);

/**
 * The version of the record format this engine writes. 1 (a record without `version`): every
 * cube of a Command or Infiltrate step is a placeCube move of its own. 2: a confirmed draft may
 * be one placeCubes move. A reader of version 2 reads version 1 as it is: its moves are moves of
 * today's engine.
 */
export const RECORD_VERSION = 2;

/**
 * A saved match: the format's version, how it was set up, its seed (if dealt randomly), every
 * move in order, and the players' names by seat (optional: records saved before names were
 * recorded have none).
 */
export const matchRecordSchema = z
  .strictObject({
    version: z
      .union([z.literal(1), z.literal(RECORD_VERSION)], {
        error: `a record of version 1 or ${RECORD_VERSION} (this app reads no newer one)`,
      })
      .optional(),
    setupData: setupDataSchema,
    seed: z.string().optional(),
    moves: z.array(moveRecordSchema),
    names: z.strictObject({ '0': playerName, '1': playerName }).optional(),
  })
  .refine((r) => r.seed !== undefined || r.setupData.deal !== undefined, {
    message: 'a record needs a seed or a fixed deal to be replayable',
    path: ['seed'],
  })
  .refine((r) => (r.version ?? 1) >= 2 || r.moves.every((m) => m.move !== 'placeCubes'), {
    message: `placeCubes moves need record version ${RECORD_VERSION}`,
    path: ['version'],
  });
export type MatchRecord = z.input<typeof matchRecordSchema>;

export class ReplayError extends Error {
  override name = 'ReplayError';
  constructor(
    readonly index: number,
    reason: string,
  ) {
    super(`move ${index}: ${reason}`);
  }
}

export interface ReplayStep {
  /** Index of the move in the record; -1 for the position before the first move. */
  index: number;
  /** boardgame.io's full state (G, ctx, plugins) after this move. */
  full: FullState;
  state: State;
  /** The deck and variants the record was played under. */
  rules: RulesContext;
  /** The public log entries this move produced. */
  entries: LogEntry[];
}

/**
 * Replays a record through boardgame.io's reducer, exactly as the server applied
 * it, yielding the position after every move (for replay viewers).
 */
export function* replaySteps(record: MatchRecord): Generator<ReplayStep> {
  const parsed = matchRecordSchema.parse(record);
  const { game, rules } = ironCurtainFor(parsed.setupData);
  const reduce = reducerFor(game);
  let full = initialFull(game, parsed.setupData, parsed.seed);
  yield { index: -1, full, state: full.G as State, rules, entries: [] };
  for (const [index, { playerID, move, args }] of parsed.moves.entries()) {
    const step = stepMove(game, reduce, full, { seat: playerID as Seat, move, args });
    if (!step.ok) throw new ReplayError(index, step.reason);
    full = step.full;
    yield { index, full, state: full.G as State, rules, entries: step.entries };
  }
}

export interface ReplayResult {
  state: State;
  rules: RulesContext;
  /** boardgame.io's full state (G, ctx, plugins) after the last move. */
  final: FullState;
  log: LogEntry[];
}

/** Replays a whole record: the final state and the full public log. */
export function replay(record: MatchRecord): ReplayResult {
  const log: LogEntry[] = [];
  let last: ReplayStep | undefined;
  for (const step of replaySteps(record)) {
    log.push(...step.entries);
    last = step;
  }
  if (!last) throw new Error('replaySteps yielded nothing');
  return { state: last.state, rules: last.rules, final: last.full, log };
}
