import { useTranslation } from 'react-i18next';
import { CopyLink } from '../app/CopyLink.tsx';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { MatchScreen } from './MatchScreen.tsx';
import { loadSeat } from './seatStore.ts';

/** A player's page: the seat and credentials this browser keeps for the match. */
export function PlayPage({ matchID }: { matchID: string }) {
  const { t } = useTranslation();
  const held = loadSeat(matchID);
  if (!held) {
    return (
      <main className="page">
        <section className="panel" role="alert">
          <h2>{t('match.noSeatTitle')}</h2>
          <p>
            {t('match.noSeatText')} <Link to={paths.watch(matchID)}>{t('match.watchMatch')}</Link>.
          </p>
        </section>
      </main>
    );
  }
  const waitingNote = held.links && (
    <section className="panel waiting" aria-label={t('match.invite')}>
      <p className="waiting-title">{t('match.waitingOpponent')}</p>
      <CopyLink label={t('home.inviteLink')} url={held.links.invite} />
      <CopyLink label={t('home.spectatorLink')} url={held.links.spectate} />
    </section>
  );
  return (
    <MatchScreen
      matchID={matchID}
      seat={held.seat}
      credentials={held.credentials}
      waitingNote={waitingNote}
    />
  );
}
