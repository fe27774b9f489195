import type { TFunction } from 'i18next';
import { errorWords } from '../i18n/errorWords.ts';

/**
 * An account refusal in words: a name too close to another says which name, every other code
 * its own sentence (errorWords).
 */
export function accountErrorWords(t: TFunction, error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    error.code === 'NAME_TOO_CLOSE' &&
    'similarTo' in error &&
    typeof error.similarTo === 'string'
  ) {
    return t('account.tooCloseTo', { name: error.similarTo });
  }
  return errorWords(t, error);
}

/** A date of the account's, in the reader's language. */
export const dayOf = (iso: string, language: string): string =>
  new Date(iso).toLocaleDateString(language, { year: 'numeric', month: 'long', day: 'numeric' });
