import type { MoveName, Seat } from '@iron-curtain/game';
import type { MatchResult } from '@iron-curtain/protocol';
import type { TFunction } from 'i18next';
import {
  lazy,
  type ReactNode,
  Suspense,
  startTransition,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useBringIntoView } from '../app/motion.ts';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { liveTableShown } from '../app/serviceWorker.ts';
import { MatchView } from '../board/MatchView.tsx';
import { useSeatAccounts } from '../features/accounts/useSeatAccounts.ts';
import { MatchExtras } from '../features/MatchExtras.tsx';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { ConnectionBar } from './ConnectionBar.tsx';
import { earlyClientMounted, takeEarlyClient } from './earlyClient.ts';
import { GameClient } from './gameClient.ts';
import { LeaveMatch } from './LeaveMatch.tsx';
import { socketTransport, type Transport } from './transport.ts';

// The chat is a panel beside the table: it loads after the board, outside the first download.
const ChatPanel = lazy(() =>
  import('../chat/ChatPanel.tsx').then((m) => ({ default: m.ChatPanel })),
);

// What the end offers on the table: each loads once a match ends there.
const MatchAnalysis = lazy(() =>
  import('../features/replay/MatchAnalysis.tsx').then((m) => ({ default: m.MatchAnalysis })),
);
const RematchButton = lazy(() =>
  import('../features/rematch/Rematch.tsx').then((m) => ({ default: m.RematchButton })),
);

export interface MatchScreenProps {
  matchID: string;
  seat: Seat | null;
  credentials?: string;
  /** Shown above the table while the other seat is free (the creator's invite link). */
  waitingNote?: ReactNode;
  /** Builds the connection; the app uses socket.io at its own origin. */
  connect?: (matchID: string) => Transport;
}

/** A live match for one seat or a spectator: connection, refusals, and the table. */
export function MatchScreen({
  matchID,
  seat,
  credentials,
  waitingNote,
  connect = socketTransport,
}: MatchScreenProps) {
  const client = useMemo(
    () =>
      (connect === socketTransport && takeEarlyClient(matchID, seat, credentials)) ||
      new GameClient(connect(matchID), matchID, seat, credentials),
    [connect, matchID, seat, credentials],
  );
  useEffect(() => {
    client.start();
    earlyClientMounted(client);
    return () => client.stop();
  }, [client]);
  const game = useClientSnapshot(client);
  const chatReceived = useMemo(
    () => ({ subscribe: client.chat.subscribe, count: client.chat.lineCount }),
    [client],
  );
  const { view, presence } = game;
  const { t } = useTranslation();
  const tableShows = Boolean(view && game.rules);
  useEffect(() => {
    if (tableShows) liveTableShown();
  }, [tableShows]);

  const accounts = useSeatAccounts(matchID, presence);
  const names: Record<Seat, string> = {
    '0': presence?.players['0'].name ?? t('match.waitingForPlayer'),
    '1': presence?.players['1'].name ?? t('match.waitingForPlayer'),
  };
  const ended = presence?.status === 'finished' || Boolean(view?.result);
  const opponentMissing =
    seat !== null && presence !== null && presence.players[seat === '0' ? '1' : '0'].name === null;
  const seatFree =
    presence !== null &&
    (presence.players['0'].name === null || presence.players['1'].name === null);
  const waiting = seatFree && !ended;

  const bar = (
    <ConnectionBar
      connection={game.connection}
      synced={game.synced}
      presence={presence}
      seat={seat}
    >
      {seat !== null && credentials && presence && !ended && (
        <LeaveMatch
          matchID={matchID}
          seat={seat}
          credentials={credentials}
          playing={presence.status !== 'waiting' && !opponentMissing}
        />
      )}
    </ConnectionBar>
  );

  if (game.fatal) {
    return (
      <main className="page match-page">
        <section className="panel refusal" role="alert">
          <h2>{t('match.cannotOpen')}</h2>
          <p>{errorWords(t, game.fatal)}</p>
          <p>
            <Link to={paths.home()}>{t('match.backHome')}</Link>
            {seat !== null && (
              <>
                {' · '}
                <Link to={paths.watch(matchID)}>{t('match.watchInstead')}</Link>
              </>
            )}
          </p>
        </section>
      </main>
    );
  }

  return (
    <main
      className="page match-page"
      data-state-id={game.stateID}
      data-pending={game.pending}
      data-synced={game.synced}
    >
      {!(view && game.rules) && bar}
      {waiting &&
        ((opponentMissing && waitingNote) || (
          <section className="panel waiting" aria-label={t('match.invite')}>
            <p className="waiting-title">{t('match.waitingForSeat')}</p>
          </section>
        ))}
      {game.refusal && (
        <div className="refusal-banner" role="alert" data-refusal={game.refusal.code}>
          <span>{errorWords(t, game.refusal)}</span>
          <button type="button" onClick={() => client.dismissRefusal()}>
            {t('match.dismiss')}
          </button>
        </div>
      )}
      {ended && !view?.result && <EarlyEnd result={presence?.result ?? null} />}
      {view && game.rules ? (
        <MatchView
          rules={game.rules}
          view={view}
          seat={seat}
          names={names}
          log={game.log}
          recent={game.recent}
          pending={game.pending}
          connected={game.connection === 'online' && game.synced}
          waitingForOpponent={waiting}
          bar={bar}
          live={{ presence, clock: game.clock, clockAt: game.clockAt, stopped: ended, accounts }}
          aside={
            <MatchExtras
              matchID={matchID}
              seat={seat}
              credentials={credentials}
              presence={presence}
              clock={game.clock}
              clockAt={game.clockAt}
              sides={view?.sides ?? null}
              deck={game.rules?.deck ?? null}
            />
          }
          ending={{
            actions: seat !== null &&
              credentials &&
              presence?.status === 'finished' &&
              presence.result && (
                <Suspense fallback={null}>
                  <RematchButton
                    matchID={matchID}
                    seat={seat}
                    credentials={credentials}
                    side={view.sides[seat]}
                    presence={presence}
                  />
                </Suspense>
              ),
            analysis: (
              <Suspense fallback={<p className="loading">{t('replay.loading')}</p>}>
                <MatchAnalysis matchID={matchID} />
              </Suspense>
            ),
          }}
          onMove={(move: MoveName, args: unknown[]) => client.makeMove(move, args)}
          panels={[
            {
              id: 'chat',
              label: t('chat.tab'),
              received: chatReceived,
              content: (
                <Suspense fallback={null}>
                  <ChatPanel chat={client.chat} seat={seat} names={names} />
                </Suspense>
              ),
            },
          ]}
        />
      ) : (
        <p className="loading">{t('match.loading')}</p>
      )}
    </main>
  );
}

/**
 * The client's latest snapshot. What the other seat did (and everything a spectator sees) renders
 * as a transition: React draws the table in slices, yielding to the browser between them, where
 * an external store's update was one long task per move (on a phone, a live match's every move
 * blocked input for 300-600 ms). The viewer's own move, sent or answered (pending changes), shows
 * at once: the table must not offer the same choices again while it is on its way.
 */
function useClientSnapshot(client: GameClient): ReturnType<GameClient['getSnapshot']> {
  const [snapshot, setSnapshot] = useState(client.getSnapshot);
  useEffect(() => {
    // What changed between the first render and this subscription is taken up here.
    let last = client.getSnapshot();
    setSnapshot(last);
    return client.subscribe(() => {
      const next = client.getSnapshot();
      const own = next.pending !== last.pending;
      last = next;
      if (own) setSnapshot(next);
      else startTransition(() => setSnapshot(next));
    });
  }, [client]);
  return snapshot;
}

/** One sentence per way a match ends, in the loser's or the winner's words. */
function endReasonWords(
  t: TFunction,
  words: ReturnType<typeof useGameWords>,
  result: MatchResult,
): string {
  const loser = words.TheSide(result.winnerSide === 'US' ? 'USSR' : 'US');
  switch (result.reason) {
    case 'resigned':
    case 'timeout':
    case 'abandoned':
      return t(`match.${result.reason}`, { side: loser });
    case 'track':
      return t('end.byTrack', { side: words.side(result.winnerSide) });
    case 'final':
      return t('match.final');
  }
}

/** A match that ended without a game result (resigned, out of time, abandoned, closed). */
function EarlyEnd({ result }: { result: MatchResult | null }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const here = useBringIntoView<HTMLElement>();
  return (
    <section
      ref={here}
      className="panel end-screen"
      aria-label={t('match.result')}
      data-winner={result?.winnerSide ?? 'none'}
    >
      {result ? (
        <>
          <h2>{t('match.wins', { side: words.TheSide(result.winnerSide) })}</h2>
          <p className="end-reason" data-reason={result.reason}>
            {endReasonWords(t, words, result)}
          </p>
        </>
      ) : (
        <h2>{t('match.closedEarly')}</h2>
      )}
    </section>
  );
}
