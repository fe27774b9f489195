import { type HeldSeat, PUSH_LANGUAGES, type PushLanguage } from '@iron-curtain/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { LobbyError } from '../../lobby/api.ts';
import { disablePush, enablePush, PushDenied, pushAbility, pushWanted } from './pushClient.ts';

const pushLanguage = (language: string): PushLanguage =>
  (PUSH_LANGUAGES as readonly string[]).includes(language) ? (language as PushLanguage) : 'en';

export interface PushOptInProps {
  /** The seats to be told about: the table's own, or every match My games lists. */
  seats: HeldSeat[];
  /** My games offers it for all its matches at once. */
  all?: boolean;
}

/**
 * The opt-in to "your turn" notifications: asks the browser's permission on a click, then
 * subscribes this browser for the seats. Shows nothing where the browser has no Web Push.
 */
export function PushOptIn({ seats, all = false }: PushOptInProps) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorWords();
  const [ability, setAbility] = useState(pushAbility);
  // Remembered in localStorage: read on each render, redrawn after each change.
  const [, setChanges] = useState(0);
  const on = seats.length > 0 && seats.every((s) => pushWanted(s.matchID));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What the browser answered the player's own click: nothing is said before they ask.
  const [refused, setRefused] = useState<PushDenied['permission'] | null>(null);
  if (ability === 'unsupported' || seats.length === 0) return null;

  const change = async (wanted: boolean) => {
    setBusy(true);
    setError(null);
    setRefused(null);
    try {
      if (wanted) await enablePush(seats, pushLanguage(i18n.language));
      else await disablePush(seats);
    } catch (e) {
      if (e instanceof PushDenied) setRefused(e.permission);
      // The browser's own failures (its push service out of reach) are not the lobby's.
      else setError(e instanceof LobbyError ? errorText(e) : t('push.failed'));
    } finally {
      setBusy(false);
      setAbility(pushAbility());
      setChanges((n) => n + 1);
    }
  };

  return (
    <div className="push-opt-in" aria-live="polite">
      {on && ability === 'granted' ? (
        <p className="push-on">
          {t('push.on')}{' '}
          <button type="button" className="secondary" disabled={busy} onClick={() => change(false)}>
            {t('push.turnOff')}
          </button>
        </p>
      ) : (
        <button type="button" className="secondary" disabled={busy} onClick={() => change(true)}>
          {all ? t('push.turnOnAll') : t('push.turnOn')}
        </button>
      )}
      {refused === 'denied' && <p className="push-blocked">{t('push.blocked')}</p>}
      {refused === 'default' && <p className="push-dismissed">{t('push.dismissed')}</p>}
      {error !== null && <p className="error">{error}</p>}
    </div>
  );
}
