import type { State } from '@iron-curtain/game';
import { json } from '../database/columns.ts';
import type { MatchProgress, MoveRecord, StoredState } from './match-store.ts';

/** The progress of a match at `state`, which `move` produced (null: its initial state). */
export function progressOf(state: StoredState, move: MoveRecord | null): MatchProgress {
  return {
    deciding: (state.G as State).decision?.seat ?? null,
    lastMove: move && {
      stateID: move.stateID,
      seat: move.seat,
      entries: move.entries,
      at: move.at,
    },
  };
}

/** The progress column's value as both backends write it (JSON text). */
export const progressColumn = (state: StoredState, move: MoveRecord | null): string =>
  JSON.stringify(progressOf(state, move));

/** The progress column as read; undefined for a row written before the column was kept. */
export const progressFromColumn = (value: unknown): MatchProgress | undefined =>
  value == null ? undefined : json<MatchProgress>(value);
