import { useTranslation } from 'react-i18next';

export const OPPONENTS = ['human', 'easy', 'medium', 'hard'] as const;
export type Opponent = (typeof OPPONENTS)[number];

/** Who takes the other seat, on the form that creates a match (read back with opponentFromForm). */
export function OpponentChoice() {
  const { t } = useTranslation();
  return (
    <label>
      {t('opponent.label')}
      <select name="opponent" defaultValue="human">
        {OPPONENTS.map((opponent) => (
          <option key={opponent} value={opponent}>
            {t(`opponent.${opponent}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The request's `opponent`: a person with the invite link unless the form chose the computer. */
export function opponentFromForm(form: FormData): { opponent: Opponent } {
  const value = form.get('opponent');
  return { opponent: OPPONENTS.find((o) => o === value) ?? 'human' };
}
