import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord } from '../storage/index.ts';
import { deadlineOf } from './clock.ts';

/**
 * One timer per match whose clock runs here, set to the running seat's deadline as stored.
 * Every instance arms its own; the store's finish is a compare-and-set, so one timeout wins.
 */
export class Timekeeper {
  private readonly timers = new Map<string, unknown>();
  private stopped = false;

  constructor(
    private readonly time: TimeSource,
    /** Called when a match's running seat may have run out of time. */
    private readonly expired: (matchID: string) => void,
  ) {}

  /** Arms, moves or clears the match's timer to match its stored clock. */
  track(match: MatchRecord): void {
    this.clear(match.matchID);
    if (this.stopped) return;
    const deadline = match.status === 'playing' && match.clock ? deadlineOf(match.clock) : null;
    if (deadline === null) return;
    const handle = this.time.setTimer(
      () => {
        this.timers.delete(match.matchID);
        this.expired(match.matchID);
      },
      Math.max(0, deadline - this.time.now()),
    );
    this.timers.set(match.matchID, handle);
  }

  clear(matchID: string): void {
    const handle = this.timers.get(matchID);
    if (handle === undefined) return;
    this.time.clearTimer(handle);
    this.timers.delete(matchID);
  }

  /** Clears every timer and arms no more (the server is stopping). */
  stop(): void {
    this.stopped = true;
    for (const matchID of [...this.timers.keys()]) this.clear(matchID);
  }
}
