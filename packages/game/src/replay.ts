import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { z } from 'zod';
import { ironCurtainFor } from './game.ts';
import { applyMove } from './rules.ts';
import type { RulesContext } from './rules-context.ts';
import { setupDataSchema } from './setup.ts';
import type { State } from './state.ts';
import { type LogEntry, MOVE_NAMES } from './types.ts';

export const moveRecordSchema = z.strictObject({
  playerID: z.enum(['0', '1']),
  move: z.enum(MOVE_NAMES as [string, ...string[]]),
  args: z.array(z.unknown()),
});

const playerName = z.string().trim().min(1).max(64);

/**
 * A saved match: how it was set up, its seed (if dealt randomly), every move in order, and the
 * players' names by seat (optional: records saved before names were recorded have none).
 */
export const matchRecordSchema = z
  .strictObject({
    setupData: setupDataSchema,
    seed: z.string().optional(),
    moves: z.array(moveRecordSchema),
    names: z.strictObject({ '0': playerName, '1': playerName }).optional(),
  })
  .refine((r) => r.seed !== undefined || r.setupData.deal !== undefined, {
    message: 'a record needs a seed or a fixed deal to be replayable',
    path: ['seed'],
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
  full: ReturnType<typeof InitializeGame>;
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
  const { game: ofRules, rules } = ironCurtainFor(parsed.setupData);
  const game = parsed.seed === undefined ? ofRules : { ...ofRules, seed: parsed.seed };
  const reducer = CreateGameReducer({ game });
  let full = InitializeGame({ game, numPlayers: 2, setupData: parsed.setupData });
  yield { index: -1, full, state: full.G as State, rules, entries: [] };
  for (const [index, { playerID, move, args }] of parsed.moves.entries()) {
    const before = full;
    full = reducer(full, { type: 'MAKE_MOVE', payload: { type: move, args, playerID } });
    if (full._stateID === before._stateID) {
      // boardgame.io does not say why; the engine does.
      const outcome = applyMove(rules, structuredClone(before.G as State), playerID, move, args);
      throw new ReplayError(
        index,
        outcome.ok ? `${move} was refused by the game flow` : outcome.error,
      );
    }
    const entries = (full.deltalog ?? []).flatMap(
      (e) => (e.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
    );
    yield { index, full, state: full.G as State, rules, entries };
  }
}

export interface ReplayResult {
  state: State;
  rules: RulesContext;
  /** boardgame.io's full state (G, ctx, plugins) after the last move. */
  final: ReturnType<typeof InitializeGame>;
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
