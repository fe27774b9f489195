import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorWords } from '../i18n/errorWords.ts';
import { type Seating, type Sitter, sitterOf } from './playerName.ts';

/**
 * A lobby request a button starts for a seat: refused when a guest typed no name, busy while
 * it runs, the refusal in words when it fails. On success the page moves on, so busy stays.
 */
export function useLobbyAction() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (seating: Seating, action: (sitter: Sitter) => Promise<void>) => {
    const sitter = sitterOf(seating);
    if (!sitter) {
      setError(t('home.enterName'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await action(sitter);
    } catch (e) {
      setError(errorWords(t, e));
      setBusy(false);
    }
  };
  return { busy, error, run };
}
