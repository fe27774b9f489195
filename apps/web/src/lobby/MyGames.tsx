import type { Deck, Seat } from '@iron-curtain/game';
import type { MyGame, MyGamesResponse } from '@iron-curtain/protocol';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { timeLeft, useFormatClock, useFormatDeadline } from '../features/clock/SeatClock.tsx';
import { PushOptIn } from '../features/push/PushOptIn.tsx';
import { useNow } from '../features/useNow.ts';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { heldSeats, SEATS_ARRIVED } from '../match/seatStore.ts';
import { LobbyError, lobby } from './api.ts';
import { GiveGames, TakeGames } from './Handover.tsx';
import { savedMyGames, saveMyGames } from './myGamesStore.ts';
import './my-games.css';

/** How often the list is asked for again while the page is shown. */
const REFRESH_MS = 30_000;

/** Waiting for you first, then waiting for an opponent, then the opponent's turn, then the finished; newest first within each. */
const GROUPS = ['you', 'waiting', 'opponent', 'finished'] as const;
const groupOf = (game: MyGame): (typeof GROUPS)[number] =>
  game.status === 'finished'
    ? 'finished'
    : game.status === 'waiting'
      ? 'waiting'
      : game.turn === 'you'
        ? 'you'
        : 'opponent';

/** The games a page lists, in the order it lists them; the seats the lobby refused are left out. */
export function orderMyGames(games: MyGamesResponse['games']): MyGame[] {
  const found = games.filter((g): g is MyGame => !('error' in g));
  return found.sort(
    (a, b) =>
      GROUPS.indexOf(groupOf(a)) - GROUPS.indexOf(groupOf(b)) ||
      Date.parse(b.updatedAt) - Date.parse(a.updatedAt),
  );
}

/** "5 minutes ago" in the reader's language, in the largest whole unit. */
function ago(language: string, ms: number): string {
  const format = new Intl.RelativeTimeFormat(language, { numeric: 'auto' });
  const minutes = Math.round(ms / 60_000);
  if (Math.abs(minutes) < 60) return format.format(-minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return format.format(-hours, 'hour');
  return format.format(-Math.round(hours / 24), 'day');
}

type FindDeck = (hash: string) => Deck | undefined;

/**
 * The built-in decks, loaded only once a game's last move is to be told: loading them checks
 * them with the deck schema (classic zod), which the home page's first paint should not wait for.
 */
function useBuiltInDecks(wanted: boolean): FindDeck | null {
  const [found, setFound] = useState<{ find: FindDeck } | null>(null);
  useEffect(() => {
    if (!wanted || found) return;
    let live = true;
    import('@iron-curtain/game').then(
      (game) => live && setFound({ find: game.builtInDeck }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted, found]);
  return found?.find ?? null;
}

function GameRow({
  game,
  receivedAt,
  now,
  findDeck,
}: {
  game: MyGame;
  receivedAt: number;
  now: number;
  findDeck: FindDeck | null;
}) {
  const { t, i18n } = useTranslation();
  const words = useGameWords();
  const formatClock = useFormatClock();
  // A correspondence turn in days, as at the table; its end as a date and time.
  const formatTurn = useFormatClock(true);
  const formatDeadline = useFormatDeadline();
  const opponent = game.opponent.name ?? t('myGames.nobodyYet');
  const other: Seat = game.seat === '0' ? '1' : '0';
  const deck = findDeck?.(game.deck.hash);
  const move = game.lastMove?.entries[0];
  const state =
    game.status === 'waiting'
      ? t('myGames.waiting')
      : game.status === 'finished'
        ? game.result === null
          ? t('myGames.closed')
          : game.result.winner === game.seat
            ? t('myGames.won')
            : t('myGames.lost', { name: opponent })
        : game.turn === 'you'
          ? t('myGames.yourTurn')
          : t('myGames.theirTurn', { name: opponent });
  const clock = game.clock && game.status === 'playing' ? game.clock : null;
  return (
    <li className="my-game" data-match={game.matchID} data-turn={groupOf(game)}>
      <Link to={paths.match(game.matchID)} className="my-game-link">
        <span className="my-game-who">
          {t('myGames.against', {
            name: opponent,
            side: words.side(game.opponent.side),
            mine: words.side(game.side),
          })}
        </span>
        <strong className="my-game-state">{state}</strong>
      </Link>
      {clock && game.deadline !== null && clock.running !== null && (
        <span className="my-game-clock" role="timer">
          {t('myGames.turnLeft', {
            time: formatTurn(timeLeft(clock, clock.running, receivedAt, now)),
            when: formatDeadline(Date.parse(game.deadline)),
          })}
        </span>
      )}
      {clock && game.deadline === null && (
        <span className="my-game-clock" role="timer">
          {t('myGames.timeLeft', {
            mine: formatClock(timeLeft(clock, game.seat, receivedAt, now)),
            theirs: formatClock(timeLeft(clock, other, receivedAt, now)),
            name: opponent,
          })}
        </span>
      )}
      {move && deck && (
        <span className="my-game-move">
          {t('myGames.lastMove', { move: words.logLine(move, deck) })}
        </span>
      )}
      <span className="my-game-updated">
        {t('myGames.updated', { when: ago(i18n.language, now - Date.parse(game.updatedAt)) })}
      </span>
    </li>
  );
}

/** A request that got no answer at all: the browser is offline, or the server out of reach. */
const unanswered = (error: unknown) =>
  error instanceof LobbyError && (error.code === 'OFFLINE' || error.code === 'NETWORK');

/**
 * Every match this browser holds a seat in, the ones waiting for the reader first, with their
 * count in the page's title. One request asks for all of them; nothing shows when there are none.
 * Each answer is kept (./myGamesStore.ts): when a request gets none, the last one shows, marked
 * with its time, until the server answers again.
 */
export function MyGames() {
  const { t } = useTranslation();
  const formatWhen = useFormatDeadline();
  const [games, setGames] = useState<{
    list: MyGame[];
    receivedAt: number;
    kept: boolean;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    const held = heldSeats();
    const seats = held.map(({ matchID, seat, credentials }) => ({ matchID, seat, credentials }));
    if (seats.length === 0) return setGames({ list: [], receivedAt: Date.now(), kept: false });
    try {
      const answer = await lobby.myGames({ seats });
      const receivedAt = Date.now();
      saveMyGames({ receivedAt, answer });
      setGames({ list: orderMyGames(answer.games), receivedAt, kept: false });
      setError(null);
    } catch (e) {
      const kept = unanswered(e) ? savedMyGames(new Set(held.map((h) => h.matchID))) : null;
      if (kept) {
        setGames({
          list: orderMyGames(kept.answer.games),
          receivedAt: kept.receivedAt,
          kept: true,
        });
        setError(null);
      } else setError(errorWords(t, e));
    }
  }, [t]);
  useEffect(() => {
    void load();
    const again = () => {
      if (document.visibilityState === 'visible') void load();
    };
    const timer = setInterval(again, REFRESH_MS);
    document.addEventListener('visibilitychange', again);
    // The account's seats arrived on this device: list them at once.
    window.addEventListener(SEATS_ARRIVED, again);
    // Back online: the list as it is now, at once.
    window.addEventListener('online', again);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', again);
      window.removeEventListener(SEATS_ARRIVED, again);
      window.removeEventListener('online', again);
    };
  }, [load]);
  const list = games?.list ?? [];
  const waiting = list.filter((g) => groupOf(g) === 'you').length;
  const ticking = list.some((g) => g.status === 'playing' && g.clock?.running != null);
  const now = useNow(ticking, 1000);
  const findDeck = useBuiltInDecks(list.some((g) => g.lastMove !== null));
  useEffect(() => {
    if (waiting === 0) return;
    document.title = t('myGames.pageTitle', { waiting, title: t('app.title') });
    return () => {
      document.title = t('app.title');
    };
  }, [waiting, t]);
  // The seats of the matches still to play: what notifications are asked for.
  const unfinished = useMemo(() => {
    const open = new Set(list.filter((g) => g.status !== 'finished').map((g) => g.matchID));
    return heldSeats()
      .filter((held) => open.has(held.matchID))
      .map(({ matchID, seat, credentials }) => ({ matchID, seat, credentials }));
  }, [list]);
  const reload = () => void load();
  return (
    <>
      {(list.length > 0 || error !== null) && (
        <section className="panel my-games" aria-labelledby="my-games-title">
          <h2 id="my-games-title">{t('myGames.title')}</h2>
          {games?.kept && (
            <p className="my-games-kept" role="status">
              {t('myGames.kept', { when: formatWhen(games.receivedAt) })}
            </p>
          )}
          {waiting > 0 && (
            <p className="my-games-count">{t('myGames.waitingForYou', { count: waiting })}</p>
          )}
          {error !== null && <p className="error">{error}</p>}
          <ul>
            {list.map((game) => (
              <GameRow
                key={game.matchID}
                game={game}
                receivedAt={games?.receivedAt ?? now}
                now={now}
                findDeck={findDeck}
              />
            ))}
          </ul>
          <div className="my-games-actions">
            <button type="button" className="secondary" onClick={reload}>
              {t('myGames.refresh')}
            </button>
            {list.length > 0 && <GiveGames />}
            <PushOptIn seats={unfinished} all />
          </div>
        </section>
      )}
      <TakeGames onTaken={reload} />
    </>
  );
}
