import type { Seat } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';
import { type ClockRecord, deadlineOf, type MatchRecord, type Store } from '../storage/index.ts';
import type { MatchRoom } from './match-room.ts';
import type { TurnNews } from './turn-news.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A clock of `minutes` per seat, not running yet. */
export const newClock = (minutes: number): ClockRecord => ({
  perPlayerMs: minutes * 60_000,
  remainingMs: { '0': minutes * 60_000, '1': minutes * 60_000 },
  running: null,
  since: null,
});

/** A correspondence clock: `days` for each turn, not running yet. */
export const turnClock = (days: number): ClockRecord => newClock((days * DAY_MS) / 60_000);

/** The clock a match is created with: minutes per player, days per turn, or none. */
export const clockFor = (
  minutes: number | undefined,
  days: number | undefined,
): ClockRecord | null =>
  days !== undefined ? turnClock(days) : minutes !== undefined ? newClock(minutes) : null;

/** The running seat's time left at `now` (never below zero); the other seat's as stored. */
export function remainingAt(clock: ClockRecord, seat: Seat, now: number): number {
  const stored = clock.remainingMs[seat];
  if (clock.running !== seat || clock.since === null) return stored;
  return Math.max(0, stored - (now - Date.parse(clock.since)));
}

/**
 * Charges the running seat for its decision so far, then runs `next`'s time from `now` (null:
 * stop). `perTurn` (correspondence): a seat the decision passes to starts its turn with the
 * full time, whatever it used before, and the seat that handed it over waits with a full turn
 * ahead (what clients show for it); deciding again, a seat goes on with what is left.
 */
export function switchClock(
  clock: ClockRecord,
  next: Seat | null,
  now: number,
  perTurn = false,
): ClockRecord {
  const remainingMs = { '0': remainingAt(clock, '0', now), '1': remainingAt(clock, '1', now) };
  if (perTurn && next !== null && next !== clock.running) {
    remainingMs['0'] = clock.perPlayerMs;
    remainingMs['1'] = clock.perPlayerMs;
  }
  return {
    perPlayerMs: clock.perPlayerMs,
    remainingMs,
    running: next,
    since: next === null ? null : new Date(now).toISOString(),
  };
}

/** The seat whose time has run out at `now`, if any. */
export function flagFallen(clock: ClockRecord, now: number): Seat | null {
  return clock.running !== null && remainingAt(clock, clock.running, now) <= 0
    ? clock.running
    : null;
}

/** What clients are sent: each seat's time left at `now`. */
export function clockState(clock: ClockRecord, now: number): ClockState {
  return {
    perPlayerMs: clock.perPlayerMs,
    remainingMs: { '0': remainingAt(clock, '0', now), '1': remainingAt(clock, '1', now) },
    running: clock.running,
  };
}

/** The seat a match's clock should run for: the one whose decision it is. */
const deciderOf = (state: { G: unknown }): Seat | null =>
  (state.G as { decision?: { seat: Seat } | null }).decision?.seat ?? null;

export interface TurnClockDeps {
  store: Store;
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
  async start(room: MatchRoom, match: MatchRecord): Promise<MatchRecord> {
    const clock = match.clock;
    if (match.status !== 'playing' || !clock || clock.running !== null || clock.since !== null) {
      return match;
    }
    const { store, time } = this.deps;
    const state = room.state ?? (await store.loadState(match.matchID));
    if (!state) return match;
    const first = deciderOf(state);
    const started = switchClock(clock, first, time.now());
    await store.setClock(match.matchID, started);
    room.record = { ...match, clock: started };
    if (match.daysPerTurn && first !== null) this.deps.news.decisionPassed(room.record, first);
    return room.record;
  }

  /** Arms, moves or clears the room's timer to match its clock as stored (`match`). */
  arm(room: MatchRoom, match: MatchRecord): void {
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

  clear(room: MatchRoom): void {
    if (room.timer === undefined) return;
    this.deps.time.clearTimer(room.timer);
    room.timer = undefined;
  }

  /** Arms no more timers (the server is stopping); the rooms clear theirs. */
  stop(): void {
    this.stopped = true;
  }

  /** Arms the timers of every match in play with a running clock (on start). */
  async resume(roomOf: (matchID: string) => MatchRoom): Promise<void> {
    for (const match of await this.deps.store.listRunningClocks()) {
      const room = roomOf(match.matchID);
      room.record = match;
      this.arm(room, match);
    }
  }
}
