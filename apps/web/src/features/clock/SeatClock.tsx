import type { Seat } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import { useTranslation } from 'react-i18next';
import { useNow } from '../useNow.ts';

const pad = (n: number) => String(n).padStart(2, '0');

const DAY_MS = 86_400_000;

/** A correspondence clock: a turn of a day or more, told in days even in its last day. */
export const countsDays = (clock: ClockState): boolean => clock.perPlayerMs >= DAY_MS;

/**
 * m:ss, h:mm:ss from an hour, and from a day (a correspondence turn) the days in words then
 * h:mm:ss; rounding up so a clock shows 0:00 only when the time is really gone. `inDays`: the
 * days always, 0 too, so the two seats of a correspondence match read alike ("0 d 23:59:59"
 * beside "1 d 0:00:00", not "23:59:59").
 */
export function formatClock(
  ms: number,
  dayWords?: (days: number) => string,
  inDays = false,
): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const rest = `${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
  if ((days > 0 || inDays) && dayWords) return `${dayWords(days)} ${hours}:${rest}`;
  const allHours = days * 24 + hours;
  return allHours > 0 ? `${allHours}:${rest}` : `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

/** formatClock with the days in the page's language ("2 d 3:04:05"); `inDays` as formatClock's. */
export function useFormatClock(inDays = false): (ms: number) => string {
  const { t } = useTranslation();
  return (ms) => formatClock(ms, (count) => t('clockChoice.dayShort', { count }), inDays);
}

/**
 * When a correspondence turn ends, in the reader's own time zone and language's way of writing
 * a date ("Sat, 29 Nov, 06:00"): a deadline days away is read as a date, not counted in seconds.
 */
export function useFormatDeadline(): (at: number) => string {
  const { i18n } = useTranslation();
  return (at) => deadlineFormat(i18n.language).format(at);
}

/**
 * One deadline formatter per language, made once and only when a deadline is shown (a
 * correspondence match): building an Intl.DateTimeFormat loads the locale's data, and every seat
 * panel of a live table asked for one.
 */
const deadlineFormats = new Map<string, Intl.DateTimeFormat>();
function deadlineFormat(language: string): Intl.DateTimeFormat {
  let format = deadlineFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, {
      weekday: 'short',
      day: 'numeric',
      month: 'short',
      hour: 'numeric',
      minute: '2-digit',
    });
    deadlineFormats.set(language, format);
  }
  return format;
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
  const format = useFormatClock(countsDays(clock));
  const left = running ? timeLeft(clock, seat, receivedAt, now) : clock.remainingMs[seat];
  return (
    <span
      className={`seat-clock${left < 10_000 ? ' low' : ''}`}
      data-running={running}
      role="timer"
    >
      <span className="sr-only">{label}</span>
      {format(left)}
    </span>
  );
}
