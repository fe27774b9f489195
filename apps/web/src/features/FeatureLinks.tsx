import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';

/** Links to the pages around matches: uploading a deck, replaying a record file. */
export function FeatureLinks() {
  const { t } = useTranslation();
  return (
    <p className="feature-links">
      <Link to={paths.decks()}>{t('decksPage.link')}</Link>
      {' · '}
      <Link to={paths.replayImport()}>{t('replay.importLink')}</Link>
    </p>
  );
}
