import type { LogEntry, MoveName, Seat, Side, Variants } from '@iron-curtain/game';
import type {
  ChatPhrase,
  ChatRoom,
  DaysPerTurn,
  DeckInfo,
  MatchResult,
  MatchStatus,
  PushLanguage,
  RematchState,
  Visibility,
} from '@iron-curtain/protocol';
import type { State as BgioState } from 'boardgame.io';

// A match's status, visibility, result, deck and rematch are stored as the lobby answers them:
// the protocol's shapes, re-exported as the types of this interface.
export type { DaysPerTurn, DeckInfo, MatchResult, MatchStatus, RematchState, Visibility };

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

/** A deck file an owner of the game uploaded, keyed by the sha256 of its canonical JSON. */
export interface StoredDeck {
  info: DeckInfo;
  /** The deck file as validated (canonical JSON). */
  file: unknown;
  createdAt: string;
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
}

/** Lines of each chat room a match keeps, the newest: a sync sends no more. */
export const CHAT_LINES_KEPT = 200;

/** One line of a match's chat, as stored. */
export interface ChatRecord {
  /** Increasing in the order lines were stored (across matches; a match's lines sort by it). */
  id: number;
  matchID: string;
  room: ChatRoom;
  /** null: a spectator. */
  seat: Seat | null;
  phrase?: ChatPhrase;
  text?: string;
  at: string;
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

/** A handover as a try at its code finds it. */
export interface HandoverTry {
  /** The seats sealed with the code (empty once used or expired). */
  sealed: string;
  expiresAt: string;
  usedAt: string | null;
  /** Tries at its code so far, this one included when counted. */
  tries: number;
  /** Whether this try was counted: false once the code had all its tries. */
  counted: boolean;
}

/**
 * A browser a seat asked to be told by Web Push when it is its turn: the push service's
 * endpoint, the keys a message is encrypted to, and the language it reads.
 */
export interface PushSubscriptionRecord {
  matchID: string;
  seat: Seat;
  endpoint: string;
  /** The browser's P-256 public key (base64url), RFC 8291's ua_public. */
  p256dh: string;
  /** The browser's 16-byte authentication secret (base64url). */
  auth: string;
  language: PushLanguage;
  createdAt: string;
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

export interface MatchListQuery {
  status?: MatchStatus | undefined;
  limit: number;
  /** Only the open challenges' matches (visibility 'open'); else every listed match. */
  openOnly?: boolean;
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
  /** Ends a match that has not finished yet (stopping its clock when given); false when it had already finished. */
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
  /** Stores an uploaded deck; false when a deck with that hash is already there. */
  saveDeck(deck: StoredDeck): Promise<boolean>;
  getDeck(hash: string): Promise<StoredDeck | undefined>;
  /** Uploaded decks, oldest first. */
  listDecks(): Promise<StoredDeck[]>;
  /** The match's moves in order. */
  readMoves(matchID: string): Promise<MoveRecord[]>;
  /**
   * Appends a line to the match's chat, dropping its room's lines older than the last
   * CHAT_LINES_KEPT; answers it with its id (undefined: no such match).
   */
  addChatLine(line: Omit<ChatRecord, 'id'>): Promise<ChatRecord | undefined>;
  /** The match's chat in order. */
  readChat(matchID: string): Promise<ChatRecord[]>;
  setChatOff(matchID: string, off: boolean): Promise<void>;
  setMuting(matchID: string, seat: Seat, muting: boolean): Promise<void>;
  /**
   * Removes matches the query selects with everything stored with them (seats, state, moves,
   * chat). One removal runs at a time across the instances sharing the store: null when
   * another was running (nothing done). Removing a match already gone does nothing.
   */
  removeMatches(query: RemovalQuery): Promise<RemovedMatch[] | null>;
  /**
   * The server secret `name`: `fresh` is stored on the first call, and every later call, on
   * every instance sharing the store, answers the stored one. Never sent to a client.
   */
  serverSecret(name: string, fresh: string): Promise<string>;
  /**
   * Keeps a handover of seats to another browser, sealed with its one-time code, under `key`
   * until `expiresAt` (ISO). Meanwhile the seats of handovers expired at `now` are forgotten,
   * and handovers expired before `forgetBefore` dropped. False, keeping nothing, when `key`
   * is taken.
   */
  putHandover(
    key: string,
    sealed: string,
    times: { expiresAt: string; now: string; forgetBefore: string },
  ): Promise<boolean>;
  /**
   * A try at the handover under `key`: counted, on every instance, unless it had `maxTries`
   * already (`counted` says which). The handover as it stands after; undefined when none.
   */
  tryHandover(key: string, maxTries: number): Promise<HandoverTry | undefined>;
  /** Marks the handover under `key` used at `now` and forgets its seats, once: false when it was used already. */
  useHandover(key: string, now: string): Promise<boolean>;
  /**
   * Keeps a seat's push subscription (a browser subscribing again replaces its keys and
   * language); a seat keeps its newest PUSH_SUBSCRIPTIONS_PER_SEAT. Removed with its match.
   * False when there is no such match.
   */
  savePushSubscription(subscription: PushSubscriptionRecord): Promise<boolean>;
  /** The seat's push subscriptions (every seat's when `seat` is undefined), oldest first. */
  listPushSubscriptions(matchID: string, seat?: Seat): Promise<PushSubscriptionRecord[]>;
  /** Drops one seat's subscription of one browser; false when there was none. */
  removePushSubscription(matchID: string, seat: Seat, endpoint: string): Promise<boolean>;
  /** Drops every subscription of an endpoint the push service says is gone; answers how many. */
  removePushEndpoint(endpoint: string): Promise<number>;
  /** Drops every subscription of a match (once it ended, nothing more is sent for it). */
  removeMatchPushSubscriptions(matchID: string): Promise<void>;
  /** Throws when the store cannot serve requests. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
