import type { Seat } from '@iron-curtain/game';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';
import { deadlineOf, type MatchRecord, type MatchStore } from '../storage/index.ts';
import { flagFallen, switchClock } from './clock-record.ts';
import type { Room } from './room.ts';
import type { TurnNews } from './turn-news.ts';

/** The seat a match's clock should run for: the one whose decision it is. */
const deciderOf = (state: { G: unknown }): Seat | null =>
  (state.G as { decision?: { seat: Seat } | null }).decision?.seat ?? null;

export interface TurnClockDeps {
  matches: Pick<MatchStore, 'loadState' | 'setClock' | 'listRunningClocks'>;
  logger: Logger;
  time: TimeSource;
  news: TurnNews;
}

/**
 * The turn clock of a room's match: started when the match begins, and a timer per running
 * clock, set to the running seat's deadline as stored, that tells the room when the time may
 * be up (a move made after the time ran out is refused even before the timer fires). A
 * correspondence match's deadline is days away: no timer is held for it, the deadline sweep
 * (which reads the deadlines due from the store) tells its room when it is due. Every
 * instance arms its own timer; the store's finish is a compare-and-set, so one timeout wins.
 * The timer is the room's: a room with an armed timer stays, viewers or not.
 */
export class TurnClock {
  private stopped = false;

  constructor(private readonly deps: TurnClockDeps) {}

  /** Whether the running seat's time is up at `now`. */
  fallen(match: MatchRecord, now: number): boolean {
    return match.status === 'playing' && !!match.clock && flagFallen(match.clock, now) !== null;
  }

  /**
   * A match that has just begun starts its clock for the seat deciding first, which a
   * correspondence match tells (the seat may have created it days ago and gone).
   */
  async start(room: Room, match: MatchRecord): Promise<MatchRecord> {
    const clock = match.clock;
    if (match.status !== 'playing' || !clock || clock.running !== null || clock.since !== null) {
      return match;
    }
    const { matches, time } = this.deps;
    const state = room.state ?? (await matches.loadState(match.matchID));
    if (!state) return match;
    const first = deciderOf(state);
    const started = switchClock(clock, first, time.now());
    await matches.setClock(match.matchID, started);
    room.record = { ...match, clock: started };
    if (match.daysPerTurn && first !== null) this.deps.news.decisionPassed(room.record, first);
    return room.record;
  }

  /** Arms, moves or clears the room's timer to match its clock as stored (`match`). */
  arm(room: Room, match: MatchRecord): void {
    this.clear(room);
    if (this.stopped) return;
    const live = match.status === 'playing' && !match.daysPerTurn;
    const deadline = live ? deadlineOf(match.clock) : null;
    if (deadline === null) return;
    const { time, logger } = this.deps;
    room.timer = time.setTimer(
      () => {
        room.timer = undefined;
        room
          .tell({ kind: 'clock' })
          .catch((error) =>
            logger.error({ err: error, matchID: room.matchID }, 'clock check failed'),
          );
      },
      Math.max(0, deadline - time.now()),
    );
  }

  clear(room: Room): void {
    if (room.timer === undefined) return;
    this.deps.time.clearTimer(room.timer);
    room.timer = undefined;
  }

  /** Arms no more timers (the server is stopping); the rooms clear theirs. */
  stop(): void {
    this.stopped = true;
  }

  /** Arms the timers of every match in play with a running clock (on start). */
  async resume(roomOf: (matchID: string) => Room): Promise<void> {
    for (const match of await this.deps.matches.listRunningClocks()) {
      const room = roomOf(match.matchID);
      room.record = match;
      this.arm(room, match);
    }
  }
}
