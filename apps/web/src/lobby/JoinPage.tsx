import type { MatchInfo } from '@iron-curtain/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PlayerName } from '../app/PlayerName.tsx';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { loadSeat, saveSeat } from '../match/seatStore.ts';
import { lobby } from './api.ts';
import { seated, sitterOf } from './playerName.ts';
import { SeatName } from './SeatName.tsx';

/** The invite page: a guest's name (a signed-in player's is the account's), then the free seat. */
export function JoinPage({
  matchID,
  invite,
  account,
}: {
  matchID: string;
  invite: string | null;
  account: string | null;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const [info, setInfo] = useState<MatchInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const held = loadSeat(matchID);

  useEffect(() => {
    lobby.getMatch(matchID).then(setInfo, (e: unknown) => setError(errorWords(t, e)));
  }, [matchID, t]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!invite) return;
    const sitter = sitterOf(
      account
        ? { account }
        : { guest: String(new FormData(event.currentTarget).get('name') ?? '') },
    );
    if (!sitter) {
      setError(t('home.enterName'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const grant = await lobby.joinMatch(matchID, { ...sitter.request, invite });
      saveSeat(grant, { name: sitter.name });
      seated(sitter);
      navigate(paths.match(matchID), { replace: true });
    } catch (e) {
      setError(errorWords(t, e));
      setBusy(false);
    }
  };

  const host = info?.players.find((p) => p.name !== null);
  const free = info?.players.find((p) => p.name === null);
  return (
    <main className="page join-page">
      <header className="title">
        <h1>{t('app.title')}</h1>
      </header>
      <section className="panel" aria-label={t('join.label')}>
        <h2>{t('join.title')}</h2>
        {host && (
          <p>
            <PlayerName name={host.name ?? ''} account={host.account} computer={host.computer} />{' '}
            {t('join.hostPlaysSide', { side: words.theSide(host.side) })}
            {free ? t('join.youWouldPlay', { side: words.theSide(free.side) }) : t('join.period')}
          </p>
        )}
        {info?.daysPerTurn && (
          <p className="join-timing">{t('join.correspondence', { count: info.daysPerTurn })}</p>
        )}
        {held ? (
          <p>
            {t('join.alreadyHeld', { side: words.side(held.side) })}{' '}
            <Link to={paths.match(matchID)}>{t('join.continue')}</Link>
          </p>
        ) : info && !free ? (
          <p>
            {t('join.full')} <Link to={paths.watch(matchID)}>{t('join.watchInstead')}</Link>
          </p>
        ) : !invite ? (
          <p className="error" role="alert">
            {t('join.incomplete')}
          </p>
        ) : (
          <form onSubmit={submit}>
            <SeatName account={account} />
            <button type="submit" className="primary" disabled={busy}>
              {busy ? t('join.joining') : t('join.join')}
            </button>
          </form>
        )}
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
      </section>
    </main>
  );
}
