import type { Seat } from '@iron-curtain/game';
import { deadlineColumns } from './deadlines.ts';
import { jsonOrNull } from './rows.ts';
import type { ClockRecord, MatchResult, MoveRecord, StoredState } from './store.ts';

/**
 * One move's write as the SQLite store binds it: strings and numbers only, so a group of them
 * crosses to the store's thread as one cheap message (a structured clone of the state itself
 * costs the event loop more than its JSON).
 */
export interface MoveWrite {
  matchID: string;
  expectedStateID: number;
  /** The new state's id. */
  stateID: number;
  /** The state id the move produced, as its log row keeps it. */
  moveStateID: number;
  /** The new state's JSON. */
  state: string;
  seat: Seat;
  move: string;
  args: string;
  entries: string;
  at: string;
  result: string | null;
  clock: string | null;
  deadline: string | null;
  warnAt: string | null;
}

export function moveWrite(
  matchID: string,
  expectedStateID: number,
  next: StoredState,
  move: MoveRecord,
  result: MatchResult | null,
  clock: ClockRecord | undefined,
): MoveWrite {
  const { deadline, warnAt } = deadlineColumns(clock);
  return {
    matchID,
    expectedStateID,
    stateID: next._stateID,
    moveStateID: move.stateID,
    state: JSON.stringify(next),
    seat: move.seat,
    move: move.move,
    args: JSON.stringify(move.args),
    entries: JSON.stringify(move.entries),
    at: move.at,
    result: jsonOrNull(result),
    clock: jsonOrNull(clock),
    deadline,
    warnAt,
  };
}
