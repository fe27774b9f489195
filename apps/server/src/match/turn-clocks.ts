import type { Seat } from '@iron-curtain/game';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, Store } from '../storage/index.ts';
import { flagFallen, switchClock } from './clock.ts';
import type { MatchQueues } from './queues.ts';
import { Timekeeper } from './timekeeper.ts';

/** The seat a match's clock should run for: the one whose decision it is. */
const deciderOf = (state: { G: unknown }): Seat | null =>
  (state.G as { decision?: { seat: Seat } | null }).decision?.seat ?? null;

export interface MatchClocksDeps {
  store: Store;
  queues: MatchQueues;
  logger: Logger;
  time: TimeSource;
  /** The running seat's time is up (checked in the match's queue): end the match. */
  timeIsUp: (match: MatchRecord, now: number) => Promise<void>;
}

/**
 * The turn clocks of matches in play: started when a match begins, re-armed on start and
 * after every move, and a timer per running clock that ends the match when its time is up
 * (a move made after the time ran out is refused even before the timer fires).
 */
export class MatchClocks {
  private readonly timekeeper: Timekeeper;

  constructor(private readonly deps: MatchClocksDeps) {
    this.timekeeper = new Timekeeper(deps.time, (matchID) => this.timeUp(matchID));
  }

  /** Arms (or clears) the match's timer from its clock as stored. */
  track(match: MatchRecord): void {
    this.timekeeper.track(match);
  }

  clear(matchID: string): void {
    this.timekeeper.clear(matchID);
  }

  stop(): void {
    this.timekeeper.stop();
  }

  /** Whether the running seat's time is up at `now`. */
  fallen(match: MatchRecord, now: number): boolean {
    return match.status === 'playing' && !!match.clock && flagFallen(match.clock, now) !== null;
  }

  /** A match that has just begun starts its clock for the seat deciding first. */
  async startClock(match: MatchRecord): Promise<MatchRecord> {
    const clock = match.clock;
    if (match.status !== 'playing' || !clock || clock.running !== null || clock.since !== null) {
      return match;
    }
    const state = await this.deps.store.loadState(match.matchID);
    if (!state) return match;
    const started = switchClock(clock, deciderOf(state), this.deps.time.now());
    await this.deps.store.setClock(match.matchID, started);
    return { ...match, clock: started };
  }

  /** Arms the timers of every match in play with a running clock (on start). */
  async resume(): Promise<void> {
    for (const match of await this.deps.store.listRunningClocks()) this.track(match);
  }

  /** A timer fired: ends the match if the running seat's time is really up. */
  private timeUp(matchID: string): void {
    const { queues, store, time, logger } = this.deps;
    void queues
      .run(matchID, async () => {
        const match = await store.getMatch(matchID);
        if (match?.status !== 'playing' || !match.clock) return;
        const now = time.now();
        if (flagFallen(match.clock, now) === null) this.track(match);
        else await this.deps.timeIsUp(match, now);
      })
      .catch((error) => logger.error({ err: error, matchID }, 'clock check failed'));
  }
}
