import { useTranslation } from 'react-i18next';
import { PlayerName } from '../app/PlayerName.tsx';

/**
 * The name a seat taken here will bear: a signed-in player's is the account's, shown with its
 * mark (nothing to type); a guest types one.
 */
export function SeatName({
  account,
  className,
  value,
  onChange,
}: {
  account: string | null;
  className?: string;
  /** A controlled field's value and change (the home page); uncontrolled without. */
  value?: string;
  onChange?: (name: string) => void;
}) {
  const { t } = useTranslation();
  if (account) {
    return (
      <p className={`${className ?? ''} playing-as`.trim()}>
        {t('home.playingAs')} <PlayerName name={account} account={account} />
      </p>
    );
  }
  return (
    <label className={className}>
      {t('home.yourName')}{' '}
      <input
        name="name"
        maxLength={24}
        autoComplete="nickname"
        required
        value={value}
        onChange={onChange && ((e) => onChange(e.currentTarget.value))}
      />
    </label>
  );
}
