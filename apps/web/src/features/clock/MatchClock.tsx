import type { Seat, Side } from '@iron-curtain/game';
import type { ClockState } from '@iron-curtain/protocol';
import { useTranslation } from 'react-i18next';
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

export interface MatchClockProps {
  clock: ClockState;
  /** When the clock was received (ms since the epoch). */
  receivedAt: number;
  sides: Record<Seat, Side>;
  names: Record<Seat, string>;
  /** Stop counting (the match is over). */
  stopped?: boolean;
}

/** Both players' clocks; the running one counts down every quarter second. */
export function MatchClock({ clock, receivedAt, sides, names, stopped = false }: MatchClockProps) {
  const { t } = useTranslation();
  const running = stopped ? null : clock.running;
  const now = useNow(running !== null);
  return (
    <section className="panel match-clock" aria-label={t('clock.label')}>
      <ul>
        {(['0', '1'] as const).map((seat) => {
          const left =
            running === seat ? timeLeft(clock, seat, receivedAt, now) : clock.remainingMs[seat];
          return (
            <li
              key={seat}
              data-seat={seat}
              data-running={running === seat}
              className={left < 10_000 ? 'clock low' : 'clock'}
            >
              <span role="timer">
                {t('clock.seat', { side: sides[seat], name: names[seat], time: formatClock(left) })}
              </span>
              {running === seat && <span className="clock-running"> ({t('clock.running')})</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
