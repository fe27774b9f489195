// The clock a match's record holds, as plain arithmetic on it: no timer, no room, no store.
import type { Seat } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import type { ClockRecord, MatchRecord } from '../storage/index.ts';

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

/** Whether a match in play has a running seat whose time is up at `now`. */
export function timeUp(match: MatchRecord, now: number): boolean {
  return match.status === 'playing' && !!match.clock && flagFallen(match.clock, now) !== null;
}

/** What clients are sent: each seat's time left at `now`. */
export function clockState(clock: ClockRecord, now: number): ClockState {
  return {
    perPlayerMs: clock.perPlayerMs,
    remainingMs: { '0': remainingAt(clock, '0', now), '1': remainingAt(clock, '1', now) },
    running: clock.running,
  };
}
