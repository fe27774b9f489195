import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import './player-name.css';

/**
 * A seat's player as the lobby shows it: an account's name links to its profile and is marked
 * as an account's; a typed name is marked as a guest's (no account stands behind it).
 */
export function PlayerName({ name, account }: { name: string; account?: string | null }) {
  const { t } = useTranslation();
  if (account) {
    return (
      <span className="player-name">
        <Link to={paths.profile(account)}>{account}</Link>{' '}
        <span className="player-mark account-mark">{t('profile.accountMark')}</span>
      </span>
    );
  }
  return (
    <span className="player-name">
      {name} <span className="player-mark guest-mark">{t('profile.guestMark')}</span>
    </span>
  );
}
