import type { ClockRecord, MatchResult, MoveRecord, StoredState } from './match-store.ts';

/** A move to store: what `MatchStore.commitMove` was given. */
export interface MoveWrite {
  matchID: string;
  expectedStateID: number;
  next: StoredState;
  move: MoveRecord;
  result: MatchResult | null;
  clock: ClockRecord | undefined;
}

/** A move waiting for its group's transaction, and its caller's answer. */
export interface PendingMove extends MoveWrite {
  resolve: (written: boolean) => void;
  reject: (error: unknown) => void;
}
