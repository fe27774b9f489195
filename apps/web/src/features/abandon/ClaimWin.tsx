import type { Seat } from '@iron-curtain/game';
import type { ClockState, Presence } from '@iron-curtain/protocol';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { lobby } from '../../lobby/api.ts';
import { timeLeft } from '../clock/SeatClock.tsx';
import { useNow } from '../useNow.ts';

export interface ClaimWinProps {
  matchID: string;
  seat: Seat;
  credentials: string;
  presence: Presence;
  /** When the presence was received (ms since the epoch): absences count on from there. */
  presenceAt: number;
  clock: ClockState | null;
  clockAt: number;
}

/**
 * While the opponent is disconnected: how long ago they left, and once the grace period is
 * over (or their clock ran out) a button that claims the win. The server decides; its refusal
 * is shown as it is.
 */
export function ClaimWin({
  matchID,
  seat,
  credentials,
  presence,
  presenceAt,
  clock,
  clockAt,
}: ClaimWinProps) {
  const { t } = useTranslation();
  const errorText = useErrorWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const opponent: Seat = seat === '0' ? '1' : '0';
  const away = presence.players[opponent];
  const absent = presence.status === 'playing' && !away.connected && away.name !== null;
  const now = useNow(absent || clock?.running === opponent, 1000);
  const flagFallen =
    presence.status === 'playing' && clock !== null && timeLeft(clock, opponent, clockAt, now) <= 0;
  if (!absent && !flagFallen) return null;

  const awayMs = (away.awayMs ?? 0) + (now - presenceAt);
  const waitMs = Math.max(0, (presence.graceMs ?? 60_000) - awayMs);
  const claimable = flagFallen || waitMs === 0;

  const claim = async () => {
    setBusy(true);
    setError(null);
    try {
      await lobby.claimWin(matchID, { seat, credentials });
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="panel claim-win" aria-live="polite">
      {flagFallen ? (
        <p>{t('claim.timeout')}</p>
      ) : (
        <>
          <p>{t('claim.away', { seconds: Math.floor(awayMs / 1000) })}</p>
          <p>
            {claimable ? t('claim.ready') : t('claim.wait', { seconds: Math.ceil(waitMs / 1000) })}
          </p>
        </>
      )}
      <button type="button" className="primary" disabled={!claimable || busy} onClick={claim}>
        {busy ? t('claim.busy') : t('claim.button')}
      </button>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
