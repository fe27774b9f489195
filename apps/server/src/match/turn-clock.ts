import type { Seat } from '@iron-curtain/game';
import type { TimeSource } from '../ops/time.ts';
import { deadlineOf, type MatchRecord, type MatchStore } from '../storage/index.ts';
import { switchClock } from './clock-record.ts';
import type { Outcome, RoomView } from './room.ts';

/** The seat a match's clock should run for: the one whose decision it is. */
const deciderOf = (state: { G: unknown }): Seat | null =>
  (state.G as { decision?: { seat: Seat } | null }).decision?.seat ?? null;

export interface TurnClockDeps {
  matches: Pick<MatchStore, 'loadState' | 'setClock' | 'listRunningClocks'>;
  time: TimeSource;
}

/**
 * The turn clock of a room's match: started when the match begins, and a timer per running
 * clock, set to the running seat's deadline as stored, that tells the room when the time may
 * be up (a move made after the time ran out is refused even before the timer fires). A
 * correspondence match's deadline is days away: no timer is held for it, the deadline sweep
 * (which reads the deadlines due from the store) tells its room when it is due. Every
 * instance arms its own timer; the store's finish is a compare-and-set, so one timeout wins.
 * The timer is the room's (see MatchRoom.apply): a room with an armed timer stays, viewers
 * or not.
 */
export class TurnClock {
  private stopped = false;

  constructor(private readonly deps: TurnClockDeps) {}

  /**
   * A match that has just begun starts its clock for the seat deciding first, which a
   * correspondence match tells (the seat may have created it days ago and gone). The outcome
   * holds the record as it now stands, started or not, with its timer.
   */
  async start(room: RoomView, match: MatchRecord): Promise<Outcome> {
    const clock = match.clock;
    if (match.status !== 'playing' || !clock || clock.running !== null || clock.since !== null) {
      return { record: match, clock: match };
    }
    const { matches, time } = this.deps;
    const state = room.state ?? (await matches.loadState(match.matchID));
    if (!state) return { record: match, clock: match };
    const first = deciderOf(state);
    const started = switchClock(clock, first, time.now());
    await matches.setClock(match.matchID, started);
    const record = { ...match, clock: started };
    return {
      record,
      clock: record,
      ...(match.daysPerTurn && first !== null
        ? { tell: [{ kind: 'passed', match: record, seat: first }] }
        : {}),
    };
  }

  /**
   * Sets a timer for the running seat's deadline as stored (`match`), which calls `due`;
   * undefined when none is to run (no live clock running, or the server is stopping).
   */
  arm(match: MatchRecord, due: () => void): unknown {
    if (this.stopped) return undefined;
    const live = match.status === 'playing' && !match.daysPerTurn;
    const deadline = live ? deadlineOf(match.clock) : null;
    if (deadline === null) return undefined;
    const { time } = this.deps;
    return time.setTimer(due, Math.max(0, deadline - time.now()));
  }

  /** Clears a timer `arm` set. */
  clear(timer: unknown): void {
    this.deps.time.clearTimer(timer);
  }

  /** Arms no more timers (the server is stopping); the rooms clear theirs. */
  stop(): void {
    this.stopped = true;
  }

  /** The matches in play with a running clock, each to be resumed in its room (on start). */
  running(): Promise<MatchRecord[]> {
    return this.deps.matches.listRunningClocks();
  }
}
