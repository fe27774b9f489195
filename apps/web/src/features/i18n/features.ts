import { useTranslation } from 'react-i18next';
import { i18n } from '../../i18n/i18n.ts';
import { de } from './de.ts';
import { en, type FeatureResources } from './en.ts';
import { fr } from './fr.ts';
import { pl } from './pl.ts';

/** The i18next namespace of the features around a match; small, so every language is bundled. */
export const FEATURES_NS = 'features';

export const featureResources: Record<'en' | 'de' | 'pl' | 'fr', FeatureResources> = {
  en,
  de,
  pl,
  fr,
};

for (const [language, resources] of Object.entries(featureResources)) {
  i18n.addResourceBundle(language, FEATURES_NS, resources, true, true);
}

/** `t` for the features' texts, in the language the site is shown in. */
export function useFeatureTranslation() {
  return useTranslation(FEATURES_NS);
}
