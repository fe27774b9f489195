import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { z } from 'zod';
import { IronCurtain } from './game.ts';
import { applyMove } from './rules.ts';
import { setupDataSchema } from './setup.ts';
import type { State } from './state.ts';
import { type LogEntry, MOVE_NAMES } from './types.ts';

export const moveRecordSchema = z.strictObject({
  playerID: z.enum(['0', '1']),
  move: z.enum(MOVE_NAMES as [string, ...string[]]),
  args: z.array(z.unknown()),
});

/** A saved match: how it was set up, its seed (if dealt randomly) and every move in order. */
export const matchRecordSchema = z
  .strictObject({
    setupData: setupDataSchema,
    seed: z.string().optional(),
    moves: z.array(moveRecordSchema),
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

export interface ReplayResult {
  state: State;
  /** boardgame.io's full state (G, ctx, plugins) after the last move. */
  final: ReturnType<typeof InitializeGame>;
  log: LogEntry[];
}

/** Replays a record through boardgame.io's reducer, exactly as the server applied it. */
export function replay(record: MatchRecord): ReplayResult {
  const parsed = matchRecordSchema.parse(record);
  const game = parsed.seed === undefined ? IronCurtain : { ...IronCurtain, seed: parsed.seed };
  const reducer = CreateGameReducer({ game });
  let state = InitializeGame({ game, numPlayers: 2, setupData: parsed.setupData });
  const log: LogEntry[] = [];
  parsed.moves.forEach(({ playerID, move, args }, index) => {
    const before = state;
    state = reducer(state, { type: 'MAKE_MOVE', payload: { type: move, args, playerID } });
    if (state._stateID === before._stateID) {
      // boardgame.io does not say why; the engine does.
      const probe = structuredClone(before.G as State);
      const outcome = applyMove(probe, playerID, move, args);
      throw new ReplayError(
        index,
        outcome.ok ? `${move} was refused by the game flow` : outcome.error,
      );
    }
    for (const entry of state.deltalog ?? []) {
      const entries = (entry.metadata as { entries?: LogEntry[] } | undefined)?.entries;
      if (entries) log.push(...entries);
    }
  });
  return { state: state.G as State, final: state, log };
}
