import { useTranslation } from 'react-i18next';

/** Minutes per player offered at match creation; 0 means no clock. */
export const CLOCK_CHOICES = [0, 5, 10, 15, 30, 60] as const;

/** The clock field of a form that creates a match (read back with clockFromForm). */
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
      </select>
    </label>
  );
}

/** The request's `clockMinutes`, absent when the form chose no clock. */
export function clockFromForm(form: FormData): { clockMinutes?: number } {
  const minutes = Number(form.get('clockMinutes') ?? 0);
  return Number.isInteger(minutes) && minutes > 0 ? { clockMinutes: minutes } : {};
}
