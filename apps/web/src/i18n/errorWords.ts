import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { EnglishResources } from './en.ts';

type ErrorKey = `errors.${keyof EnglishResources['errors'] & string}`;

/**
 * Codes the page itself raises: no answer of the server arrives or makes sense, or the
 * browser's passkey ceremony failed (account/passkeys.ts).
 */
export const clientErrorCodes = [
  'OFFLINE',
  'NETWORK',
  'HTTP',
  'BAD_RESPONSE',
  'PASSKEY_CANCELLED',
  'PASSKEY_UNSUPPORTED',
  'PASSKEY_ALREADY_HERE',
  'PASSKEY_FAILED',
] as const;

/**
 * An error as a sentence in the reader's language: the text of its code (the protocol's
 * `errorCodes` and the page's own). The server's message is English detail for logs and is
 * never shown; an error without a known code reads "Something went wrong".
 */
export function errorWords(t: TFunction, error: unknown): string {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : '';
  // A code of ours has a text; t() answers an unknown key with the key itself.
  const key = `errors.${code}` as ErrorKey;
  return code && t(key) !== key ? t(key) : t('errors.generic');
}

/** errorWords in the current language, for components. */
export function useErrorWords(): (error: unknown) => string {
  const { t } = useTranslation();
  return useCallback((error: unknown) => errorWords(t, error), [t]);
}
