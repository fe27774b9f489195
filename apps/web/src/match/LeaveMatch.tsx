import type { Seat } from '@iron-curtain/game';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorWords } from '../i18n/errorWords.ts';

interface LeaveMatchProps {
  matchID: string;
  seat: Seat;
  credentials: string;
  /** A match in play is resigned; a waiting one is closed. */
  playing: boolean;
}

/** Resign (or close a match nobody joined), after a second click to confirm. */
export function LeaveMatch({ matchID, seat, credentials, playing }: LeaveMatchProps) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const leave = async () => {
    setBusy(true);
    setError(null);
    try {
      // The lobby's client is not in the match page's first download: it loads on this click.
      const { lobby } = await import('../lobby/api.ts');
      // The result reaches this page through the game service's presence message.
      await lobby.leaveMatch(matchID, { seat, credentials });
      setConfirming(false);
    } catch (e) {
      setError(errorWords(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="leave-match">
      {confirming ? (
        <>
          <span>{playing ? t('match.resignConfirm') : t('match.closeConfirm')}</span>
          <button type="button" className="danger" disabled={busy} onClick={leave}>
            {playing ? t('match.yesResign') : t('match.yesClose')}
          </button>
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            {t('match.cancel')}
          </button>
        </>
      ) : (
        <button type="button" className="secondary" onClick={() => setConfirming(true)}>
          {playing ? t('match.resign') : t('match.close')}…
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
