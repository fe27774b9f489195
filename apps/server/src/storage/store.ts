import type { LogEntry, MoveName, Seat, Side, Variants } from '@iron-curtain/game';
import type { State as BgioState } from 'boardgame.io';

export type MatchStatus = 'waiting' | 'playing' | 'finished';
export type Visibility = 'public' | 'private';

/** How a match ended: by the game, or because a seat resigned by leaving. */
export interface MatchResult {
  winner: Seat;
  winnerSide: Side;
  reason: 'track' | 'final' | 'resigned';
}

export interface SeatRecord {
  seat: Seat;
  side: Side;
  /** null while the seat is free. */
  name: string | null;
  /** sha256 of the seat's credentials; null while the seat is free. */
  credentialsHash: string | null;
}

export interface DeckInfo {
  id: string;
  version: string;
  name: string;
  hash: string;
  reconstructed: boolean;
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

export interface MatchListQuery {
  status?: MatchStatus | undefined;
  limit: number;
}

/**
 * Where matches live. Every write that changes a match's state is a compare-and-set
 * on the state id, and the move log is append-only, so two writers can never both win.
 */
export interface Store {
  readonly kind: 'sqlite' | 'postgres';
  /** Stores a new match with its initial state (state id 0). */
  createMatch(match: MatchRecord, initial: StoredState): Promise<void>;
  getMatch(matchID: string): Promise<MatchRecord | undefined>;
  /** Public matches, newest first. */
  listPublicMatches(query: MatchListQuery): Promise<MatchRecord[]>;
  /**
   * Seats a player in a free seat; the match starts when both seats are taken.
   * False when the seat was no longer free (someone else won the race).
   */
  claimSeat(
    matchID: string,
    seat: Seat,
    name: string,
    credentialsHash: string,
    at: string,
  ): Promise<boolean>;
  /** Ends a match that has not finished yet; false when it had already finished. */
  finishMatch(matchID: string, result: MatchResult | null, at: string): Promise<boolean>;
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
  ): Promise<boolean>;
  /** The match's moves in order. */
  readMoves(matchID: string): Promise<MoveRecord[]>;
  /** Throws when the store cannot serve requests. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
