import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { checkSession, useAccount } from '../account/accountStore.ts';
import { LanguagePicker } from '../i18n/LanguagePicker.tsx';
import { Link } from './router.tsx';
import { paths } from './routes.ts';

/** The links every page offers, the language, and who is signed in (or the way to sign in). */
export function SiteNav() {
  const { t } = useTranslation();
  const account = useAccount();
  useEffect(() => {
    checkSession().catch(() => undefined);
  }, []);
  return (
    <nav className="site-nav" aria-label={t('app.nav')}>
      <Link to={paths.home()}>{t('app.home')}</Link>
      <Link to={paths.rules()}>{t('app.rules')}</Link>
      <Link to={paths.tutorial()}>{t('app.tutorial')}</Link>
      <Link to={paths.hotseat()}>{t('app.hotseat')}</Link>
      <LanguagePicker />
      {account.status === 'signedIn' ? (
        <Link to={paths.account()} className="account-link">
          <span className="sr-only">{t('account.signedInAs')} </span>
          {account.account.username}
        </Link>
      ) : (
        <Link to={paths.signIn()} className="account-link">
          {t('account.signIn')}
        </Link>
      )}
    </nav>
  );
}
