import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorWords } from '../i18n/errorWords.ts';

/**
 * A lobby request a button starts under the player's name: refused without a name, busy while
 * it runs, the refusal in words when it fails. On success the page moves on, so busy stays.
 */
export function useLobbyAction() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (name: string, action: (name: string) => Promise<void>) => {
    if (name.trim() === '') {
      setError(t('home.enterName'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await action(name.trim());
    } catch (e) {
      setError(errorWords(t, e));
      setBusy(false);
    }
  };
  return { busy, error, run };
}
