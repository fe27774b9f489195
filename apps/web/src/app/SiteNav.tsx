import { useTranslation } from 'react-i18next';
import { LanguagePicker } from '../i18n/LanguagePicker.tsx';
import { Link } from './router.tsx';
import { paths } from './routes.ts';

/** The links every page offers, and the language. */
export function SiteNav() {
  const { t } = useTranslation();
  return (
    <nav className="site-nav" aria-label={t('app.nav')}>
      <Link to={paths.home()}>{t('app.home')}</Link>
      <Link to={paths.rules()}>{t('app.rules')}</Link>
      <Link to={paths.tutorial()}>{t('app.tutorial')}</Link>
      <Link to={paths.hotseat()}>{t('app.hotseat')}</Link>
      <LanguagePicker />
    </nav>
  );
}
