import type { LogEntry, Seat } from '@iron-curtain/game';
import type {
  ChatLine,
  ChatSettingsRequest,
  RefusedMessage,
  SyncRequest,
  UpdateRequest,
} from '@iron-curtain/protocol';
import type { AckFn, GameSocket } from '../edge/game-sockets.ts';
import type { Played } from '../reducer/played-with.ts';
import type { ChatRecord, MatchRecord, MatchResult, StoredState } from '../storage/index.ts';
import type { FanoutMessage } from './fanout.ts';

/**
 * What a room's parts (moves, ending, clock, chat) see of one live match's room: they read
 * it and return what happened (an Outcome), which MatchRoom alone applies. MatchRoom is the
 * room; the parts take this, so that none of them imports the room back.
 */
export interface RoomView {
  readonly matchID: string;
  /** The match's record as last read or written here; undefined: read it on next need. */
  readonly record: MatchRecord | undefined;
  /** The last state this instance stored or loaded for the match (a move on it skips a load). */
  readonly state: StoredState | undefined;
  /** This instance's sockets attached to the match. */
  readonly viewers: ReadonlySet<GameSocket>;
  /** Queues an event; resolves (or rejects) when the room has handled it. */
  tell(event: RoomEvent): Promise<void>;
  /** The record: as kept, else read (once). */
  match(): Promise<MatchRecord | undefined>;
  /** The record read again (something may have changed it elsewhere). */
  reread(): Promise<MatchRecord | undefined>;
  /** The account holding each seat, null for none: as kept, else read (once); read again with the record. */
  accounts(): Promise<Record<Seat, string | null>>;
  /** The Game, rules and reducer of the match (its deck and variants never change). */
  playedWith(match: MatchRecord): Played;
}

/**
 * What the seat sessions, the room's publisher, see of it: its audience here, and the room's
 * loads of the state and the log a sync sends (which the room keeps).
 */
export interface Room extends RoomView {
  readonly audience: Audience;
  /**
   * The last state: the room's, else loaded and kept; 'store': loaded afresh (another
   * instance may have stored one it never announced).
   */
  stateFrom(from: 'room' | 'store'): Promise<StoredState | undefined>;
  /** The public log as far as the state `stateID`: the room's, else read once and kept. */
  logAt(stateID: number): Promise<LogEntry[]>;
  /** The crowd changed: its count is told at the room's next tick (see MatchRoom.crowdChanged). */
  crowdChanged(): void;
}

/**
 * A room's audience on this instance: the sockets attached to the match, the state they all
 * hold at least, the crowd's count as told. The seat sessions (the room's publisher) alone
 * write it; the room reads it to know when it is idle.
 */
export interface Audience {
  /** This instance's sockets attached to the match. */
  readonly viewers: Set<GameSocket>;
  /** The latest state every socket here holds at least, once one was delivered or caught up. */
  delivered: number | undefined;
  /** The crowd's count as told, its tick's timer while one is armed, its fan-out in flight. */
  readonly crowd: RoomCrowd;
}

export type StoredUpdate = Extract<FanoutMessage, { kind: 'update' }>;
/** Who is sent a patch: a seat's sockets, or the spectators'. */
export type Viewer = keyof StoredUpdate['patches'];
/** An update without its patches, which are asked for per viewer (see SeatSessions.deliver). */
export type UpdateHeader = Omit<StoredUpdate, 'patches'>;

/**
 * What a part's handling of an event came to, which the room alone applies (its record,
 * state, log and timer change only there) and then publishes, in order (see MatchRoom.apply).
 * An empty outcome changes nothing and tells nobody.
 */
export interface Outcome {
  /** The match's record as it now stands; null: forget it (read again on next need). */
  record?: MatchRecord | null;
  /** The last state stored or loaded; null: forget it (another writer may have moved on). */
  state?: StoredState | null;
  /** A move's public log entries, from the state before to the one it stored. */
  logged?: { from: number; to: number; entries: LogEntry[] };
  /** The clock's timer is set to this record's running deadline, or cleared when none runs. */
  clock?: MatchRecord;
  /** What to tell, once the rest is applied. */
  tell?: Notice[];
}

/** Something a room tells: to a socket, to everyone watching the match, or to the seats away. */
export type Notice =
  /** A socket's message was refused, with the reason. */
  | { kind: 'refused'; socket: GameSocket; error: RefusedMessage; ack: AckFn | undefined }
  /** A refusal told in the acknowledgement alone when the client asked for one (the chat's). */
  | { kind: 'answered'; socket: GameSocket; error: RefusedMessage; ack: AckFn | undefined }
  /** A socket's message was taken. */
  | { kind: 'accepted'; ack: AckFn | undefined }
  /** A chat line said here, for the sockets that may read it, here and elsewhere. */
  | { kind: 'said'; match: MatchRecord; line: ChatLine }
  /** The chat's settings changed: every socket is sent its history and settings again. */
  | { kind: 'chat-settings' }
  /** A socket is sent the whole picture again, from the state as stored. */
  | { kind: 'resync'; socket: GameSocket }
  /**
   * A state this instance stored: every viewer here and on the other instances is sent its
   * own view's patch; `seatsTold` runs once the seats here have theirs (the mover's ack).
   */
  | {
      kind: 'update';
      update: UpdateHeader;
      patchFor: (viewer: Viewer) => StoredUpdate['patches'][Viewer];
      seatsTold: () => void;
    }
  /** The match changed (a seat, its status, its clock): everyone here and elsewhere is told. */
  | { kind: 'announce'; match: MatchRecord }
  /** The decision passed to a seat, which may be away (see TurnNews). */
  | { kind: 'passed'; match: MatchRecord; seat: Seat }
  /** The match ended: its seats hear the result outside the table too. */
  | { kind: 'ended'; match: MatchRecord }
  /** A correspondence seat's deadline is a day ahead (ISO), told outside the table. */
  | { kind: 'deadline-near'; seat: Seat; deadline: string };

/** The public log of a match's moves up to and including the state `stateID`. */
export interface RoomLog {
  stateID: number;
  entries: LogEntry[];
}

/** A room's crowd: its count as last told and shared (see MatchRoom.crowdChanged), its fan-out in flight. */
export interface RoomCrowd {
  /** The spectators (everywhere) the room's sockets here were last told; undefined: none yet. */
  told: number | undefined;
  /** This instance's spectators of the match as last shared with the other instances. */
  shared: number;
  /** The last update's fan-out to the crowd, settled once its last slice is sent. */
  sending: Promise<void>;
}

/**
 * A write to a match from outside its room (a seat taken, a rematch offered), made in the
 * room's turn so that it never interleaves with the match's other events; when `changed`
 * says (of the write's value) that it changed the match, the room then reads the match again
 * and tells everyone. Resolves with the write's value once it is made; rejects when the
 * write fails.
 */
export type MatchWrite = <T>(
  matchID: string,
  write: () => Promise<T>,
  changed?: (value: T) => boolean,
) => Promise<T>;

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
  /** The lobby changed the match elsewhere (a rematch linked to it): read it again, tell everyone. */
  | { kind: 'changed' }
  /** A write from outside (see MatchWrite); when it answers true, as 'changed' after. */
  | { kind: 'write'; write: () => Promise<boolean> }
  /** The room's timer fired, or the deadline sweep found its deadline due: the time may be up. */
  | { kind: 'clock' }
  /** After a restart: the match's clock runs (as stored), the room arms its timer. */
  | { kind: 'resume'; match: MatchRecord }
  /** The deadline sweep: the seat to move's correspondence deadline is a day ahead (ISO). */
  | { kind: 'deadline-near'; seat: Seat; deadline: string }
  /** The crowd's tick: its count is shared and told (see MatchRoom.crowdChanged). */
  | { kind: 'crowd' }
  /** The lobby or the referee ends the match; answers whether this ended it. */
  | { kind: 'finish'; result: MatchResult | null; now: number; ended: (ended: boolean) => void }
  /** Another instance's message about the match. */
  | { kind: 'heard'; message: FanoutMessage };
