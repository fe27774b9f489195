import { useTranslation } from 'react-i18next';
import { Link } from './router.tsx';
import { paths } from './routes.ts';
import './player-name.css';

/**
 * A seat's player as the lobby and the table show it: an account's name links to its profile and is marked
 * as an account's; a computer player's as a computer's; a typed name as a guest's (no account
 * stands behind it).
 */
export function PlayerName({
  name,
  account,
  computer,
}: {
  name: string;
  account?: string | null | undefined;
  computer?: boolean | undefined;
}) {
  const { t } = useTranslation();
  if (account) {
    return (
      <span className="named-player">
        <Link to={paths.profile(account)}>{account}</Link>{' '}
        <span className="player-mark account-mark">{t('profile.accountMark')}</span>
      </span>
    );
  }
  return (
    <span className="named-player">
      {name}{' '}
      <span className="player-mark">
        {computer ? t('profile.computerMark') : t('profile.guestMark')}
      </span>
    </span>
  );
}
