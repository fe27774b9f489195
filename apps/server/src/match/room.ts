import type { LogEntry, Seat } from '@iron-curtain/game';
import type { ChatSettingsRequest, SyncRequest, UpdateRequest } from '@iron-curtain/protocol';
import type { AckFn, GameSocket } from '../edge/game-sockets.ts';
import type { Played } from '../reducer/played-with.ts';
import type { ChatRecord, MatchRecord, MatchResult, StoredState } from '../storage/index.ts';
import type { FanoutMessage } from './fanout.ts';

/**
 * What a room's parts (sessions, moves, clock, ending, chat) see of one live match's room:
 * MatchRoom is the room; the parts take this, so that none of them imports the room back.
 */
export interface Room {
  readonly matchID: string;
  /** The match's record as last read or written here; undefined: read it on next need. */
  record: MatchRecord | undefined;
  /** The last state this instance stored or loaded for the match (a move on it skips a load). */
  state: StoredState | undefined;
  /** The match's public log as far as a state (a sync sends it), kept so a crowd's syncs read it once. */
  log: RoomLog | undefined;
  /** This instance's sockets attached to the match. */
  readonly viewers: Set<GameSocket>;
  /** The clock's timer while one is armed (see TurnClock). */
  timer: unknown;
  /** The crowd's count as told, its tick's timer while one is armed, its fan-out in flight. */
  readonly crowd: RoomCrowd;
  /** The latest state every socket here holds at least, once one was delivered or caught up. */
  delivered: number | undefined;
  /** Queues an event; resolves (or rejects) when the room has handled it. */
  tell(event: RoomEvent): Promise<void>;
  /** The record: as kept, else read (once). */
  match(): Promise<MatchRecord | undefined>;
  /** The record read again (something may have changed it elsewhere). */
  reread(): Promise<MatchRecord | undefined>;
  /** The Game, rules and reducer of the match (its deck and variants never change). */
  playedWith(match: MatchRecord): Played;
}

/** The public log of a match's moves up to and including the state `stateID`. */
export interface RoomLog {
  stateID: number;
  entries: LogEntry[];
}

/** A room's crowd: its count as last told (see SeatSessions.crowdChanged), its fan-out in flight. */
export interface RoomCrowd {
  /** The coalescing timer while one is armed. */
  timer: unknown;
  /** The spectators (everywhere) the room's sockets here were last told; undefined: none yet. */
  told: number | undefined;
  /** This instance's spectators of the match as last shared with the other instances. */
  shared: number;
  /** The last update's fan-out to the crowd, settled once its last slice is sent. */
  sending: Promise<void>;
}

/** What a socket said, checked at the door: a quick phrase or a line of free text. */
export interface ChatSaid {
  matchID: string;
  line: Pick<ChatRecord, 'phrase' | 'text'>;
}

/** A seat's move as it arrived. */
export interface MoveEvent {
  kind: 'move';
  socket: GameSocket;
  seat: Seat;
  request: UpdateRequest;
  ack: AckFn | undefined;
  /** performance.now() when the message arrived (the move's latency counts from it). */
  received: number;
}

/** A socket asks to attach as a seat or a spectator. */
export interface SyncEvent {
  kind: 'sync';
  socket: GameSocket;
  request: SyncRequest;
  ack: AckFn | undefined;
}

/** Everything that happens to a live match, each handled by its room in arrival order. */
export type RoomEvent =
  | SyncEvent
  /**
   * Spectators' syncs that arrived while the room was busy, handled together (the room makes
   * it; see MatchRoom.tell).
   */
  | { kind: 'watch'; syncs: SyncEvent[] }
  /** A socket whose message was refused is sent the whole picture again. */
  | { kind: 'resync'; socket: GameSocket }
  | MoveEvent
  | { kind: 'say'; socket: GameSocket; said: ChatSaid; ack: AckFn | undefined }
  | { kind: 'settle'; socket: GameSocket; request: ChatSettingsRequest; ack: AckFn | undefined }
  /** A viewer left (its seat, null for a spectator). */
  | { kind: 'left'; seat: Seat | null }
  /** The lobby changed the match (a seat taken, a rematch offered): read it again, tell everyone. */
  | { kind: 'changed' }
  /** The room's timer fired: the running seat's time may be up. */
  | { kind: 'clock' }
  /** The crowd's tick: its count is shared and told (see SeatSessions.crowdChanged). */
  | { kind: 'crowd' }
  /** The lobby or the referee ends the match; answers whether this ended it. */
  | { kind: 'finish'; result: MatchResult | null; now: number; ended: (ended: boolean) => void }
  /** Another instance's message about the match. */
  | { kind: 'heard'; message: FanoutMessage };
