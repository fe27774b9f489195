import type { LogEntry, MoveName, Seat, Side, Variants } from '@iron-curtain/game';
import type {
  DaysPerTurn,
  DeckInfo,
  MatchResult,
  MatchStatus,
  RatingPool,
  RematchState,
  SeatRatingChange,
  UnratedReason,
  Visibility,
} from '@iron-curtain/protocol';
import type { State as BgioState } from 'boardgame.io';

// A match's status, visibility, result, deck and rematch are stored as the lobby answers them:
// the protocol's shapes, re-exported as the types of this interface.
export type {
  DaysPerTurn,
  DeckInfo,
  MatchResult,
  MatchStatus,
  RatingPool,
  RematchState,
  SeatRatingChange,
  UnratedReason,
  Visibility,
};

/**
 * A match's clock: each seat's time left as of `since`, when the running seat's current
 * decision began. Restarted servers re-arm their timers from it.
 */
export interface ClockRecord {
  perPlayerMs: number;
  remainingMs: Record<Seat, number>;
  /** The seat whose time is running; null before the game starts and after it ends. */
  running: Seat | null;
  /** ISO time the running seat's decision began; null when none runs. */
  since: string | null;
}

export interface SeatRecord {
  seat: Seat;
  side: Side;
  /** null while the seat is free. */
  name: string | null;
  /** sha256 of the seat's credentials; null while the seat is free. */
  credentialsHash: string | null;
  /** ISO time the seat's last socket left; null while it is connected or was never away. */
  awaySince?: string | null;
  /** The seat muted its opponent's chat (absent: not muted). */
  mutingOpponent?: boolean;
  /** The signed-in account that took the seat (absent: a guest, a computer, or free). */
  accountID?: string | null;
}

/** Match metadata. `seed` and the hashes are server-side secrets: never copy them into a response. */
export interface MatchRecord {
  matchID: string;
  visibility: Visibility;
  status: MatchStatus;
  variants: Variants;
  deck: DeckInfo;
  /** boardgame.io setupData the match was created with (replays need it). */
  setupData: unknown;
  seed: string;
  inviteHash: string;
  players: [SeatRecord, SeatRecord];
  createdAt: string;
  updatedAt: string;
  result: MatchResult | null;
  /** null: no clock. */
  clock?: ClockRecord | null;
  rematch?: RematchState | null;
  /** The finished match this one is the rematch of. */
  rematchOf?: string | null;
  /** The creator turned the chat off (absent: on). */
  chatOff?: boolean;
  /**
   * Correspondence play: the days each turn may last (the clock holds them, afresh each turn);
   * absent or null: live play.
   */
  daysPerTurn?: DaysPerTurn | null;
  /** Created rated (absent: unrated): its end changes both accounts' ratings in `pool`. */
  rated?: boolean;
  pool?: RatingPool | null;
  /** Why a rated match does not count after all (set when a seat is taken, or at its end). */
  unrated?: UnratedReason | null;
  /** A rated match's end: each seat's change, stored with its result. */
  ratings?: SeatRatingChange[] | null;
}

/** Which matches the cleanup removes, oldest first, at most `limit` of them. */
export interface RemovalQuery {
  /** Unfinished matches last touched before this ISO time, but none with a turn deadline (the deadline sweep ends those). */
  unfinishedBefore: string;
  /** Finished matches last touched before this ISO time; null keeps them all. */
  finishedBefore: string | null;
  limit: number;
}

export interface RemovedMatch {
  matchID: string;
  status: MatchStatus;
}

/** A correspondence turn whose deadline is near: the seat to warn, and when its time runs out. */
export interface DueWarning {
  matchID: string;
  seat: Seat;
  deadline: string;
}

/** boardgame.io's state of a match as stored: without the transient deltalog. */
export type StoredState = Omit<BgioState, 'deltalog'>;

/** One accepted move, appended to the match's move log in order. */
export interface MoveRecord {
  /** The state id the move produced (the state it was made on + 1). */
  stateID: number;
  seat: Seat;
  move: MoveName;
  args: unknown[];
  /** The public log entries the move produced. */
  entries: LogEntry[];
  at: string;
}

/** The last move as My games shows it: who made it, when, and its public log entries. */
export type LastMove = Pick<MoveRecord, 'stateID' | 'seat' | 'entries' | 'at'>;

/**
 * Where a match stands, kept with its record and written with each move: the seat whose
 * decision its state awaits, and the move that produced that state. Reading it costs the same
 * whatever the match's length (no state is replayed, no move log read).
 */
export interface MatchProgress {
  /** null: no decision is awaited (the game is over). */
  deciding: Seat | null;
  /** null before the first move. */
  lastMove: LastMove | null;
}

export interface MatchListQuery {
  status?: MatchStatus | undefined;
  limit: number;
  /** Only the open challenges' matches (visibility 'open'); else every listed match. */
  openOnly?: boolean;
}

/**
 * Where matches live: their records and seats, their states and move logs, their clocks and
 * deadlines, their rematches. Every write that changes a match's state is a compare-and-set on
 * the state id, and the move log is append-only, so two writers can never both win.
 */
export interface MatchStore {
  /** Stores a new match with its initial state (state id 0). */
  createMatch(match: MatchRecord, initial: StoredState): Promise<void>;
  getMatch(matchID: string): Promise<MatchRecord | undefined>;
  /**
   * A match's record with its progress, in one read. A match stored before its progress was
   * kept has it worked out from its state and last move once, then kept.
   */
  getMatchProgress(
    matchID: string,
  ): Promise<{ match: MatchRecord; progress: MatchProgress } | undefined>;
  /** Public matches, newest first. */
  listPublicMatches(query: MatchListQuery): Promise<MatchRecord[]>;
  /**
   * Seats a player in a free seat (with the account it is signed in to, if any); the match
   * starts when both seats are taken. A rated match whose two seats one account took is
   * marked unrated ('same-account'). False when the seat was no longer free (someone else won
   * the race).
   */
  claimSeat(
    matchID: string,
    seat: Seat,
    name: string,
    credentialsHash: string,
    at: string,
    accountID?: string | null,
  ): Promise<boolean>;
  /**
   * Ends a match that has not finished yet (stopping its clock when given); false when it had
   * already finished. A rated match is rated in the same transaction (see RatingStore): with
   * a winner, both accounts' ratings change and the match keeps each seat's change; without
   * one, it is marked unrated ('aborted'). So does a move that ends a match (commitMove).
   */
  finishMatch(
    matchID: string,
    result: MatchResult | null,
    at: string,
    clock?: ClockRecord,
  ): Promise<boolean>;
  loadState(matchID: string): Promise<StoredState | undefined>;
  /**
   * Writes the state a move produced and appends the move, atomically, only if the
   * stored state id is still `expectedStateID`. False means a stale write: nothing changed.
   */
  commitMove(
    matchID: string,
    expectedStateID: number,
    next: StoredState,
    move: MoveRecord,
    result: MatchResult | null,
    clock?: ClockRecord,
  ): Promise<boolean>;
  /** The match's moves in order. */
  readMoves(matchID: string): Promise<MoveRecord[]>;
  /**
   * Live matches in play whose clock runs: a starting server arms their timers. Correspondence
   * matches are left to the deadline sweep.
   */
  listRunningClocks(): Promise<MatchRecord[]>;
  /** Matches in play whose running seat's deadline is at or before `now` (ISO), soonest first. */
  listDueMatches(now: string, limit: number): Promise<string[]>;
  /**
   * Takes the warnings due at `now` (ISO) out, soonest first: each turn's warning is answered
   * once, on one instance (a new turn sets its own warning).
   */
  takeDueWarnings(now: string, limit: number): Promise<DueWarning[]>;
  /**
   * Runs `work` while no other instance sharing the store runs one (the deadline sweep's
   * turn); null, with nothing run, when another instance holds the turn.
   */
  inSweepTurn<T>(work: () => Promise<T>): Promise<T | null>;
  /** Starts the clock of a match that has one (when its second seat is taken), with its deadline. */
  setClock(matchID: string, clock: ClockRecord): Promise<void>;
  /**
   * Marks a seat away since `at` (kept when it was already away), or back (`at` null).
   */
  setAway(matchID: string, seat: Seat, at: string | null): Promise<void>;
  /** Adds a seat's rematch offer to a finished match; undefined when the match is not finished. */
  offerRematch(matchID: string, seat: Seat): Promise<RematchState | undefined>;
  /**
   * Stores the rematch of a finished match and links it, only if no rematch was linked yet;
   * false when another request linked one first (nothing stored).
   */
  linkRematch(matchID: string, rematch: MatchRecord, initial: StoredState): Promise<boolean>;
  /**
   * Removes matches the query selects with everything stored with them (seats, state, moves,
   * and the rows of every other store that names them: chat, push subscriptions). One removal
   * runs at a time across the instances sharing the store: null when another was running
   * (nothing done). Removing a match already gone does nothing.
   */
  removeMatches(query: RemovalQuery): Promise<RemovedMatch[] | null>;
}
