import type { Seat } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import { useNow } from '../useNow.ts';

/** m:ss, rounding up so a clock shows 0:00 only when the time is really gone. */
export function formatClock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** Time left of `seat` at `now`, the running seat's going down from when the clock was received. */
export function timeLeft(clock: ClockState, seat: Seat, receivedAt: number, now: number): number {
  const base = clock.remainingMs[seat];
  return clock.running === seat ? Math.max(0, base - (now - receivedAt)) : base;
}

export interface SeatClockProps {
  seat: Seat;
  clock: ClockState;
  /** When the clock was received (ms since the epoch). */
  receivedAt: number;
  /** Stop counting (the match is over). */
  stopped?: boolean;
  /** Whose clock, for screen readers ("US (Ann): "), read before the time. */
  label: string;
}

/** One seat's time left, counting down every quarter second while it runs. */
export function SeatClock({ seat, clock, receivedAt, stopped = false, label }: SeatClockProps) {
  const running = !stopped && clock.running === seat;
  const now = useNow(running);
  const left = running ? timeLeft(clock, seat, receivedAt, now) : clock.remainingMs[seat];
  return (
    <span
      className={`seat-clock${left < 10_000 ? ' low' : ''}`}
      data-running={running}
      role="timer"
    >
      <span className="sr-only">{label}</span>
      {formatClock(left)}
    </span>
  );
}
