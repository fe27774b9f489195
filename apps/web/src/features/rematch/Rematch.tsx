import type { Seat, Side } from '@iron-curtain/game';
import type { Presence, SeatGrant } from '@iron-curtain/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, navigate } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { lobby } from '../../lobby/api.ts';
import { saveSeat } from '../../match/seatStore.ts';

const swapped = (side: Side): Side => (side === 'US' ? 'USSR' : 'US');

export interface RematchOfferProps {
  matchID: string;
  seat: Seat;
  credentials: string;
  /** The side this seat played in the finished match. */
  side: Side;
  presence: Presence;
}

/** A seat's side of the rematch: the offers so far and the one action, offering or accepting. */
function useRematchOffer({ matchID, seat, credentials, presence }: RematchOfferProps) {
  const errorText = useErrorWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const rematch = presence.rematch ?? { offers: [], matchID: null };
  const name = presence.players[seat].name ?? '';
  const offer = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await lobby.offerRematch(matchID, { seat, credentials });
      if (answer.seat) {
        saveSeat(answer.seat, { name });
        navigate(paths.match(answer.seat.matchID));
      }
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return {
    rematch,
    name,
    busy,
    error,
    offer,
    mine: rematch.offers.includes(seat),
    theirs: rematch.offers.includes(seat === '0' ? '1' : '0'),
  };
}

/**
 * After the end: offer a rematch, or accept the opponent's. Once both agreed, this browser
 * keeps its seat of the new match (same credentials, the other side) and goes to it.
 */
export function RematchOffer(props: RematchOfferProps) {
  const { seat, credentials, side } = props;
  const { t } = useTranslation();
  const { rematch, name, busy, error, offer, mine, theirs } = useRematchOffer(props);

  useEffect(() => {
    if (!rematch.matchID) return;
    const grant: SeatGrant = { matchID: rematch.matchID, seat, side: swapped(side), credentials };
    saveSeat(grant, { name });
    navigate(paths.match(rematch.matchID));
  }, [rematch.matchID, seat, side, credentials, name]);

  return (
    <section className="panel rematch" aria-label={t('rematch.title')} aria-live="polite">
      <h2>{t('rematch.title')}</h2>
      {rematch.matchID ? (
        <p>{t('rematch.starting')}</p>
      ) : mine ? (
        <p>{t('rematch.offered')}</p>
      ) : (
        <>
          {theirs && <p>{t('rematch.theyOffer')}</p>}
          <button type="button" className="primary" disabled={busy} onClick={offer}>
            {theirs ? t('rematch.accept') : t('rematch.offer')}
          </button>
        </>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * The rematch as one control of the result's banner on the table: the same offer as the side
 * column's (which follows an agreed rematch to its table), or where it stands once offered.
 */
export function RematchButton(props: RematchOfferProps) {
  const { t } = useTranslation();
  const { rematch, busy, error, offer, mine, theirs } = useRematchOffer(props);
  if (rematch.matchID || mine)
    return (
      <span className="rematch-state">
        {rematch.matchID ? t('rematch.starting') : t('rematch.offered')}
      </span>
    );
  return (
    <>
      <button type="button" data-rematch disabled={busy} onClick={offer}>
        {theirs ? t('rematch.accept') : t('endStage.rematch')}
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </>
  );
}

/** Spectators of a finished match move on to its rematch once the players agreed. */
export function FollowRematch({ presence }: { presence: Presence }) {
  const { t } = useTranslation();
  const next = presence.rematch?.matchID ?? null;
  useEffect(() => {
    if (next) navigate(paths.watch(next));
  }, [next]);
  if (!next) return null;
  return (
    <section className="panel rematch" aria-live="polite">
      <p>{t('rematch.spectators')}</p>
      <Link to={paths.watch(next)}>{t('rematch.follow')}</Link>
    </section>
  );
}
