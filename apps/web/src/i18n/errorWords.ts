import type { TFunction } from 'i18next';

/**
 * A message from the server in the reader's language. The server writes English details: English
 * readers get them as they are, the others the translated text of the error's code.
 */
export function errorWords(
  t: TFunction,
  language: string,
  error: { code?: string; message: string },
) {
  if (language === 'en') return error.message;
  const key = `errors.${error.code}`;
  return error.code && t(key) !== key ? t(key) : t('errors.generic');
}
