import type { Seat } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import type { ClockRecord } from '../storage/index.ts';

/** A clock of `minutes` per seat, not running yet. */
export const newClock = (minutes: number): ClockRecord => ({
  perPlayerMs: minutes * 60_000,
  remainingMs: { '0': minutes * 60_000, '1': minutes * 60_000 },
  running: null,
  since: null,
});

/** The running seat's time left at `now` (never below zero); the other seat's as stored. */
export function remainingAt(clock: ClockRecord, seat: Seat, now: number): number {
  const stored = clock.remainingMs[seat];
  if (clock.running !== seat || clock.since === null) return stored;
  return Math.max(0, stored - (now - Date.parse(clock.since)));
}

/** Charges the running seat for its decision so far, then runs `next`'s time from `now` (null: stop). */
export function switchClock(clock: ClockRecord, next: Seat | null, now: number): ClockRecord {
  return {
    perPlayerMs: clock.perPlayerMs,
    remainingMs: { '0': remainingAt(clock, '0', now), '1': remainingAt(clock, '1', now) },
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

/** When the running seat's time runs out (ms since the epoch); null when no time runs. */
export function deadlineOf(clock: ClockRecord): number | null {
  if (clock.running === null || clock.since === null) return null;
  return Date.parse(clock.since) + clock.remainingMs[clock.running];
}

/** What clients are sent: each seat's time left at `now`. */
export function clockState(clock: ClockRecord, now: number): ClockState {
  return {
    perPlayerMs: clock.perPlayerMs,
    remainingMs: { '0': remainingAt(clock, '0', now), '1': remainingAt(clock, '1', now) },
    running: clock.running,
  };
}
