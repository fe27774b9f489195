import { apiRoutes, type Profile, type ProfileGame, profileSchema } from '@iron-curtain/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { call, LobbyError } from '../lobby/api.ts';
import { dayOf } from './accountWords.ts';
import './account.css';

type Loaded =
  | { status: 'loading' }
  | { status: 'loaded'; profile: Profile }
  | { status: 'missing' }
  | { status: 'failed'; error: unknown };

/** One game's line: the side, the opponent (their profile when an account holds the seat), and its link. */
function GameLine({ game, language }: { game: ProfileGame; language: string }) {
  const { t } = useTranslation();
  const opponent = game.opponentAccount ? (
    <Link to={paths.profile(game.opponentAccount)}>{game.opponentAccount}</Link>
  ) : (
    (game.opponent ?? t('profile.freeSeat'))
  );
  const won = game.result && game.result.winnerSide === game.side;
  const finished = game.status === 'finished';
  return (
    <li>
      <span>
        {t('profile.asSide', { side: t(`sides.${game.side}`) })} · {t('profile.versus')} {opponent}
      </span>
      <span className="account-note">
        {dayOf(game.updatedAt, language)}
        {finished && game.result && ` · ${won ? t('profile.won') : t('profile.lost')}`}
      </span>
      {finished ? (
        <Link to={paths.replay(game.matchID)}>{t('profile.replay')}</Link>
      ) : (
        <Link to={paths.watch(game.matchID)}>{t('profile.watch')}</Link>
      )}
    </li>
  );
}

/** A player's public page at /@/<username>: name, member since, results by side, games. */
export function ProfilePage({ username }: { username: string }) {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    let current = true;
    setLoaded({ status: 'loading' });
    call(profileSchema, `${apiRoutes.profile.path(username)}?page=${page}`).then(
      (profile) => current && setLoaded({ status: 'loaded', profile }),
      (error: unknown) => {
        if (!current) return;
        const missing = error instanceof LobbyError && error.code === 'NOT_FOUND';
        setLoaded(missing ? { status: 'missing' } : { status: 'failed', error });
      },
    );
    return () => {
      current = false;
    };
  }, [username, page]);

  if (loaded.status !== 'loaded') {
    return (
      <main className="page account-page profile-page">
        <section className="panel" aria-labelledby="profile-title">
          <h1 id="profile-title">{username}</h1>
          {loaded.status === 'loading' && <p>{t('app.loading')}</p>}
          {loaded.status === 'missing' && <p role="alert">{t('profile.noSuchPlayer')}</p>}
          {loaded.status === 'failed' && <p role="alert">{t('profile.failed')}</p>}
        </section>
      </main>
    );
  }
  const { profile } = loaded;
  const language = i18n.language;
  return (
    <main className="page account-page profile-page">
      <section className="panel" aria-labelledby="profile-title">
        <h1 id="profile-title">{profile.username}</h1>
        <p>{t('account.memberSince', { date: dayOf(profile.memberSince, language) })}</p>
        <table className="profile-results">
          <caption>{t('profile.resultsTitle')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('profile.side')}</th>
              <th scope="col">{t('profile.played')}</th>
              <th scope="col">{t('profile.wins')}</th>
              <th scope="col">{t('profile.losses')}</th>
            </tr>
          </thead>
          <tbody>
            {(['US', 'USSR'] as const).map((side) => (
              <tr key={side}>
                <th scope="row">{t(`sides.${side}`)}</th>
                <td>{profile.results[side].played}</td>
                <td>{profile.results[side].won}</td>
                <td>{profile.results[side].lost}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="panel" aria-labelledby="current-title">
        <h2 id="current-title">{t('profile.currentTitle')}</h2>
        {profile.current.length === 0 ? (
          <p>{t('profile.noCurrent')}</p>
        ) : (
          <ul className="profile-games">
            {profile.current.map((game) => (
              <GameLine key={game.matchID} game={game} language={language} />
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="finished-title">
        <h2 id="finished-title">{t('profile.finishedTitle')}</h2>
        {profile.finished.length === 0 ? (
          <p>{t('profile.noFinished')}</p>
        ) : (
          <ul className="profile-games">
            {profile.finished.map((game) => (
              <GameLine key={game.matchID} game={game} language={language} />
            ))}
          </ul>
        )}
        <nav className="account-actions" aria-label={t('profile.pages')}>
          {profile.page > 1 && (
            <button type="button" onClick={() => setPage(profile.page - 1)}>
              {t('profile.newer')}
            </button>
          )}
          {profile.more && (
            <button type="button" onClick={() => setPage(profile.page + 1)}>
              {t('profile.older')}
            </button>
          )}
        </nav>
      </section>
    </main>
  );
}
