import { DAYS_PER_TURN, type DaysPerTurn } from '@iron-curtain/protocol';
import { useTranslation } from 'react-i18next';

/** Minutes per player offered at match creation; 0 means no clock. */
export const CLOCK_CHOICES = [0, 5, 10, 15, 30, 60] as const;

/**
 * The clock field of a form that creates a match (read back with clockFromForm): live play's
 * minutes per player, or correspondence play's days per turn ("d" and the days), one choice.
 */
export function ClockChoice() {
  const { t } = useTranslation();
  return (
    <label>
      {t('clockChoice.label')}
      <select name="clockMinutes" defaultValue="0">
        {CLOCK_CHOICES.map((minutes) => (
          <option key={minutes} value={minutes}>
            {minutes === 0 ? t('clockChoice.none') : t('clockChoice.minutes', { minutes })}
          </option>
        ))}
        <optgroup label={t('clockChoice.daysPerTurn')}>
          {DAYS_PER_TURN.map((days) => (
            <option key={days} value={`d${days}`}>
              {t('clockChoice.days', { count: days })}
            </option>
          ))}
        </optgroup>
      </select>
    </label>
  );
}

/** The request's `clockMinutes` or `daysPerTurn`, neither when the form chose no clock. */
export function clockFromForm(form: FormData): {
  clockMinutes?: number;
  daysPerTurn?: DaysPerTurn;
} {
  const chosen = String(form.get('clockMinutes') ?? '0');
  if (chosen.startsWith('d')) {
    const days = Number(chosen.slice(1));
    return (DAYS_PER_TURN as readonly number[]).includes(days)
      ? { daysPerTurn: days as DaysPerTurn }
      : {};
  }
  const minutes = Number(chosen);
  return Number.isInteger(minutes) && minutes > 0 ? { clockMinutes: minutes } : {};
}

/** How a match is timed, in words: days per turn, minutes per player, or no clock. */
export function useClockWords(): (timing: {
  clockMinutes?: number | null;
  daysPerTurn?: number | null;
}) => string {
  const { t } = useTranslation();
  return ({ clockMinutes, daysPerTurn }) =>
    daysPerTurn
      ? t('clockChoice.days', { count: daysPerTurn })
      : clockMinutes
        ? t('clockChoice.minutes', { minutes: clockMinutes })
        : t('clockChoice.none');
}
