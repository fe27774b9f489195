import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { useFeatureTranslation } from './i18n/features.ts';

/** Links to the pages around matches: uploading a deck, replaying a record file. */
export function FeatureLinks() {
  const { t } = useFeatureTranslation();
  return (
    <p className="feature-links">
      <Link to={paths.decks()}>{t('decksPage.link')}</Link>
      {' · '}
      <Link to={paths.replayImport()}>{t('replay.importLink')}</Link>
    </p>
  );
}
