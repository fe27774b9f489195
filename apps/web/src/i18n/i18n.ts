import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Resources } from './en.ts';

/** The languages of the published rulebooks. Each one's texts load when it is chosen (main.tsx waits for them). */
export const LANGUAGES = ['en', 'de', 'pl', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  de: 'Deutsch',
  pl: 'Polski',
  fr: 'Français',
};

const STORAGE_KEY = 'iron-curtain:language';

const loaders: Record<Language, () => Promise<Resources>> = {
  en: () => import('./en.ts').then((m) => m.en),
  de: () => import('./de.ts').then((m) => m.de),
  pl: () => import('./pl.ts').then((m) => m.pl),
  fr: () => import('./fr.ts').then((m) => m.fr),
};

export const isLanguage = (value: unknown): value is Language =>
  (LANGUAGES as readonly unknown[]).includes(value);

/** The remembered choice, else the browser's first language we have, else English. */
export function detectLanguage(): Language {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage may be blocked (private mode): fall back to the browser's languages.
  }
  const wanted =
    typeof navigator === 'undefined' ? [] : (navigator.languages ?? [navigator.language]);
  for (const tag of wanted) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: {},
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
  react: { useSuspense: false },
});

/** Loads a language's resources if needed, switches to it and, when asked, remembers it. */
export async function setLanguage(language: Language, { remember = true } = {}): Promise<void> {
  // English is the fallback of every missing text, so it is always loaded too.
  for (const needed of new Set<Language>(['en', language])) {
    if (!i18n.hasResourceBundle(needed, 'translation')) {
      i18n.addResourceBundle(needed, 'translation', await loaders[needed]());
    }
  }
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
  if (remember) {
    try {
      localStorage.setItem(STORAGE_KEY, language);
    } catch {
      // Not remembered: the choice still holds for this page.
    }
  }
}

/** The resources of every language, for the completeness test. */
export async function allResources(): Promise<Record<Language, Resources>> {
  const [en, de, pl, fr] = await Promise.all([
    loaders.en(),
    loaders.de(),
    loaders.pl(),
    loaders.fr(),
  ]);
  return { en, de, pl, fr };
}
