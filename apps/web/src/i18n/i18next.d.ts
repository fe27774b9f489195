import 'i18next';
import type { EnglishResources } from './en.ts';

/** Keys of `t()` typed from the English texts: an unknown key fails the type check. */
declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: EnglishResources };
    returnNull: false;
  }
}
