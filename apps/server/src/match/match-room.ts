import { setImmediate as nextTurn } from 'node:timers/promises';
import type { LogEntry, Seat } from '@iron-curtain/game';
import type { RefusedMessage } from '@iron-curtain/protocol';
import type { AckFn, GameSocket } from '../edge/game-sockets.ts';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';
import { type Played, playedWith } from '../reducer/played-with.ts';
import type { MatchRecord, MoveRecord, StoredState } from '../storage/index.ts';
import type { MatchChat } from './chat.ts';
import type { MatchEnding } from './ending.ts';
import type { FanoutMessage } from './fanout.ts';
import type { MatchMoves } from './moves.ts';
import type { Audience, Notice, Outcome, Room, RoomEvent, RoomLog, SyncEvent } from './room.ts';
import { CROWD_EVERY_MS, CROWD_SLICE, type SeatSessions } from './seat-sessions.ts';
import type { TurnClock } from './turn-clock.ts';
import type { TurnNews } from './turn-news.ts';

type WatchEvent = Extract<RoomEvent, { kind: 'watch' }>;

/** The parts a room's events are handled by; shared by every room, each takes the room. */
export interface RoomParts {
  sessions: SeatSessions;
  moves: MatchMoves;
  clock: TurnClock;
  ending: MatchEnding;
  chat: MatchChat;
  news: TurnNews;
  logger: Logger;
  /** The room's timers are set on it. */
  time: TimeSource;
  /** Tells a socket its message was refused, and why. */
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
  /** Tells a socket its message was refused, in its acknowledgement alone when it asked for one. */
  answer: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
  /** Reads a match's record from the store (every read of a room goes through here). */
  read: (matchID: string) => Promise<MatchRecord | undefined>;
  /** Reads which accounts hold a match's seats. */
  readAccounts: (matchID: string) => Promise<Record<Seat, string | null>>;
  /** Loads a match's last stored state. */
  loadState: (matchID: string) => Promise<StoredState | undefined>;
  /** Reads a match's stored moves, for their log entries. */
  readMoves: (matchID: string) => Promise<MoveRecord[]>;
  /** The room has nothing left to do and nobody here to tell: it may be dropped. */
  idle: (room: MatchRoom) => void;
  /** Takes a socket out of the room it is attached to (it syncs with another match). */
  detach: (socket: GameSocket) => void;
}

/**
 * One live match on this instance, as a round actor: it owns the match's record and last
 * stored state (as this instance knows them), its viewers' sockets here, its clock timer and
 * its queue. Every event for the match goes through `tell` and is handled one at a time, in
 * arrival order, so a move, the broadcast of its result and a socket's sync never interleave.
 * The parts handle an event and return what happened (an Outcome); the room alone applies it
 * and publishes it (`apply`). A part that throws fails its event only: the queue goes on.
 *
 * The record is read at most once per event: it is kept between events and read again when
 * something may have changed it elsewhere (a sync, the lobby, another instance, a refused
 * write). Between instances the store's compare-and-set still decides: a move on a state
 * another writer moved past is refused as stale and the record read again.
 */
export class MatchRoom implements Room {
  /** The match's record as last read or written here; undefined: read it on next need. */
  private kept: MatchRecord | undefined;
  /** The accounts holding the seats, kept as the record is (see `accounts`). */
  private held: Promise<Record<Seat, string | null>> | undefined;
  /** The last state this instance stored or loaded for the match (a move on it skips a load). */
  private last: StoredState | undefined;
  /** The match's public log as far as a state (a sync sends it), kept so a crowd's syncs read it once. */
  private log: RoomLog | undefined;
  /** Its sockets here and what its publisher, the seat sessions, keeps of them. */
  readonly audience: Audience = {
    viewers: new Set<GameSocket>(),
    delivered: undefined,
    crowd: { told: undefined, shared: 0, sending: Promise.resolve() },
  };
  /** The clock's timer while one is armed (see TurnClock). */
  private timer: unknown;
  /** The crowd's tick while one is armed (see crowdChanged). */
  private crowdTimer: unknown;
  private played: Played | undefined;
  /** The spectators' syncs queued and not begun yet, which the next spectator's sync joins. */
  private watching:
    | { event: WatchEvent; sockets: Set<GameSocket>; handled: Promise<void> }
    | undefined;
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  constructor(
    readonly matchID: string,
    private readonly parts: RoomParts,
  ) {}

  /**
   * Queues an event; resolves (or rejects) when the room has handled it. A spectator's sync
   * joins the spectators' syncs queued and not begun yet (CROWD_SLICE at most, a socket once),
   * handled together: a crowd arriving at once costs one read of the match, state, log and
   * chat and one encoding of its frames per batch instead of per spectator.
   */
  tell(event: RoomEvent): Promise<void> {
    if (event.kind === 'sync' && event.request.playerID === null) return this.watch(event);
    return this.queue(event);
  }

  private watch(sync: SyncEvent): Promise<void> {
    let batch = this.watching;
    if (!batch || batch.sockets.size >= CROWD_SLICE || batch.sockets.has(sync.socket)) {
      const event: WatchEvent = { kind: 'watch', syncs: [] };
      batch = { event, sockets: new Set(), handled: this.queue(event) };
      this.watching = batch;
    }
    batch.event.syncs.push(sync);
    batch.sockets.add(sync.socket);
    return batch.handled;
  }

  private queue(event: RoomEvent): Promise<void> {
    this.pending += 1;
    const handled = this.tail.then(() => this.handle(event));
    this.tail = handled.then(
      () => this.settled(),
      () => this.settled(),
    );
    return handled;
  }

  /** The match's record as last read or written here; undefined: read it on next need. */
  get record(): MatchRecord | undefined {
    return this.kept;
  }

  /** The last state this instance stored or loaded for the match. */
  get state(): StoredState | undefined {
    return this.last;
  }

  /** This instance's sockets attached to the match. */
  get viewers(): ReadonlySet<GameSocket> {
    return this.audience.viewers;
  }

  /** Nothing queued, nobody here and no timer: the registry may forget the room. */
  get idle(): boolean {
    return (
      this.pending === 0 &&
      this.audience.viewers.size === 0 &&
      this.timer === undefined &&
      this.crowdTimer === undefined
    );
  }

  /** Whether events are queued or being handled. */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Resolves once everything queued so far has been handled and sent to the crowd. */
  async drained(): Promise<void> {
    while (this.pending > 0) await this.tail;
    await this.audience.crowd.sending;
  }

  /** The record: as kept, else read (once). */
  async match(): Promise<MatchRecord | undefined> {
    this.kept ??= await this.parts.read(this.matchID);
    return this.kept;
  }

  /** The record read again (something may have changed it elsewhere). */
  async reread(): Promise<MatchRecord | undefined> {
    this.held = undefined;
    this.kept = await this.parts.read(this.matchID);
    return this.kept;
  }

  accounts(): Promise<Record<Seat, string | null>> {
    this.held ??= this.parts.readAccounts(this.matchID).catch((error: unknown) => {
      // The store may answer next time.
      this.held = undefined;
      throw error;
    });
    return this.held;
  }

  async stateFrom(from: 'room' | 'store'): Promise<StoredState | undefined> {
    if (from === 'store' || !this.last) this.last = await this.parts.loadState(this.matchID);
    return this.last;
  }

  async logAt(stateID: number): Promise<LogEntry[]> {
    if (this.log?.stateID !== stateID) {
      // Another instance may store a move after the state was read: the log stops at it.
      const moves = (await this.parts.readMoves(this.matchID)).filter((m) => m.stateID <= stateID);
      this.log = { stateID, entries: moves.flatMap((m) => m.entries) };
    }
    return this.log.entries.slice();
  }

  /** The Game, rules and reducer of the match (its deck and variants never change). */
  playedWith(match: MatchRecord): Played {
    this.played ??= playedWith(match);
    return this.played;
  }

  private settled(): void {
    this.pending -= 1;
    if (this.idle) this.parts.idle(this);
  }

  private async handle(event: RoomEvent): Promise<void> {
    const { sessions, moves, ending, chat } = this.parts;
    switch (event.kind) {
      case 'sync': {
        const { socket, request, ack } = event;
        const admitted = await sessions.admit(this, socket, request, ack);
        if ('refused' in admitted) return this.apply(admitted.refused);
        // A socket gone while its sync waited would be a viewer nobody removes.
        if (!socket.connected) return;
        this.parts.detach(socket);
        return sessions.sync(this, socket, admitted.match, request.playerID, ack);
      }
      case 'watch':
        // Open for one more turn of the event loop: the syncs of a crowd arriving at once
        // come in many sockets' reads, and each would be handled alone on a quick store.
        await nextTurn();
        if (this.watching?.event === event) this.watching = undefined;
        return this.apply(await sessions.watch(this, event.syncs, this.parts.detach));
      case 'resync':
        await sessions.sendSync(this, event.socket);
        return;
      case 'move': {
        const made = await moves.move(this, event);
        // The time ran out: the match ends on time before the move is refused.
        if (made.timeUp) await this.apply(await ending.onTime(made.timeUp.match, made.timeUp.now));
        await this.apply(made);
        if (made.finished) await this.apply(await ending.byMove(made.finished));
        return;
      }
      case 'say':
        return this.apply(await chat.say(this, event.socket, event.said, event.ack));
      case 'settle':
        return this.apply(await chat.settle(this, event.socket, event.request, event.ack));
      case 'left':
        // A spectator only changes the crowd's count, told at the room's next tick.
        if (event.seat === null) return this.crowdChanged();
        await sessions.seatLeft(this, event.seat);
        return this.changed();
      case 'changed':
        return this.changed();
      case 'write':
        if (await event.write()) await this.changed();
        return;
      case 'clock':
        return this.apply(await ending.clockCheck(this));
      case 'resume':
        return this.apply({ record: event.match, clock: event.match });
      case 'deadline-near':
        return this.publish([event]);
      case 'crowd':
        this.crowdTimer = undefined;
        return sessions.tellCrowd(this);
      case 'finish': {
        const { ended: done, ...outcome } = await ending.finish(this, event.result, event.now);
        await this.apply(outcome);
        event.ended(done);
        return;
      }
      case 'heard':
        return this.heard(event.message);
    }
  }

  /** The match may have changed: read it, start its clock if it has just begun, tell everyone. */
  private async changed(): Promise<void> {
    const read = await this.reread();
    if (!read) return;
    const started = await this.parts.clock.start(this, read);
    const match = started.record ?? read;
    await this.apply({ ...started, tell: [...(started.tell ?? []), { kind: 'announce', match }] });
  }

  /**
   * Applies what a part's handling came to: the record, state and log the room keeps, its
   * timer; then tells what it calls for. The only place these change after a part's work.
   */
  private async apply(outcome: Outcome): Promise<void> {
    const { record, state, logged, clock, tell } = outcome;
    if (record !== undefined) this.kept = record ?? undefined;
    if (state !== undefined) this.last = state ?? undefined;
    if (logged && this.log?.stateID === logged.from) {
      this.log.entries.push(...logged.entries);
      this.log.stateID = logged.to;
    }
    if (clock) this.arm(clock);
    if (tell) await this.publish(tell);
  }

  /** Tells, in order, what an outcome calls for: the one way the room's news goes out. */
  private async publish(notices: Notice[]): Promise<void> {
    const { sessions, news, refuse, answer, chat } = this.parts;
    for (const notice of notices) {
      switch (notice.kind) {
        case 'refused':
          refuse(notice.socket, notice.error, notice.ack);
          break;
        case 'answered':
          answer(notice.socket, notice.error, notice.ack);
          break;
        case 'accepted':
          notice.ack?.({ ok: true });
          break;
        case 'said':
          chat.told(this, notice.match, notice.line);
          break;
        case 'chat-settings':
          await chat.settingsChanged(this, await this.match());
          break;
        case 'resync':
          await sessions.sendSync(this, notice.socket);
          break;
        case 'update':
          await sessions.broadcast(this, notice.update, notice.patchFor, notice.seatsTold);
          break;
        case 'announce':
          await sessions.announce(this, notice.match);
          break;
        case 'passed':
          news.decisionPassed(notice.match, notice.seat);
          break;
        case 'ended':
          news.ended(notice.match);
          break;
        case 'deadline-near':
          news.deadlineNear(this.matchID, notice.seat, notice.deadline);
          break;
      }
    }
  }

  /**
   * The crowd changed (a spectator came or went, here or on another instance): its count is
   * told at the room's next tick, at most CROWD_EVERY_MS from now, with every other change
   * until then. O(1): a timer armed once per tick.
   */
  crowdChanged(): void {
    if (this.crowdTimer !== undefined) return;
    this.crowdTimer = this.parts.time.setTimer(() => {
      this.tell({ kind: 'crowd' }).catch((error) =>
        this.parts.logger.error({ err: error, matchID: this.matchID }, 'crowd count failed'),
      );
    }, CROWD_EVERY_MS);
  }

  /** Sets the room's timer to the clock as stored in `match` (or clears it: none runs). */
  private arm(match: MatchRecord): void {
    this.clearTimer();
    this.timer = this.parts.clock.arm(match, () => {
      this.timer = undefined;
      this.tell({ kind: 'clock' }).catch((error) =>
        this.parts.logger.error({ err: error, matchID: this.matchID }, 'clock check failed'),
      );
    });
  }

  private clearTimer(): void {
    if (this.timer === undefined) return;
    this.parts.clock.clear(this.timer);
    this.timer = undefined;
  }

  /** Clears the room's timers (the server is stopping). */
  stopTimers(): void {
    this.clearTimer();
    if (this.crowdTimer === undefined) return;
    this.parts.time.clearTimer(this.crowdTimer);
    this.crowdTimer = undefined;
  }

  private async heard(message: FanoutMessage): Promise<void> {
    const { sessions, chat } = this.parts;
    switch (message.kind) {
      case 'update':
        // Another instance stored a move: what this room keeps of the match is behind.
        this.last = undefined;
        this.kept = undefined;
        return sessions.deliver(this, message, (viewer) => message.patches[viewer]);
      case 'presence': {
        if (this.audience.viewers.size === 0) return;
        const match = await this.reread();
        if (match) await sessions.pushPresence(this, match);
        return;
      }
      case 'crowd':
        return this.crowdChanged();
      case 'chat': {
        if (this.audience.viewers.size === 0) return;
        const match = await this.match();
        if (match) chat.deliver(this, match, message.line);
        return;
      }
      case 'chat-settings': {
        if (this.audience.viewers.size === 0) return;
        const match = await this.reread();
        if (match) await chat.sendHistories(this, match);
        return;
      }
    }
  }
}
