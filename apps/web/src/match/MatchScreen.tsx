import type { MoveName, Seat } from '@iron-curtain/game';
import { type ReactNode, useEffect, useMemo, useSyncExternalStore } from 'react';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { MatchView } from '../board/MatchView.tsx';
import { ConnectionBar } from './ConnectionBar.tsx';
import { GameClient } from './gameClient.ts';
import { LeaveMatch } from './LeaveMatch.tsx';
import { socketTransport, type Transport } from './transport.ts';

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
    () => new GameClient(connect(matchID), matchID, seat, credentials),
    [connect, matchID, seat, credentials],
  );
  useEffect(() => {
    client.start();
    return () => client.stop();
  }, [client]);
  const game = useSyncExternalStore(client.subscribe, client.getSnapshot);
  const { view, presence } = game;

  const names: Record<Seat, string> = {
    '0': presence?.players['0'].name ?? 'waiting for a player',
    '1': presence?.players['1'].name ?? 'waiting for a player',
  };
  const ended = presence?.status === 'finished' || Boolean(view?.result);
  const opponentMissing =
    seat !== null && presence !== null && presence.players[seat === '0' ? '1' : '0'].name === null;

  if (game.fatal) {
    return (
      <main className="page match-page">
        <section className="panel refusal" role="alert">
          <h2>This match cannot be opened</h2>
          <p>{game.fatal.message}</p>
          <p>
            <Link to={paths.home()}>Back to the start page</Link>
            {seat !== null && (
              <>
                {' · '}
                <Link to={paths.watch(matchID)}>Watch it instead</Link>
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
      <ConnectionBar
        connection={game.connection}
        synced={game.synced}
        presence={presence}
        sides={view?.sides ?? null}
        seat={seat}
      />
      {game.refusal && (
        <div className="refusal-banner" role="alert" data-refusal={game.refusal.code}>
          <span>{game.refusal.message}</span>
          <button type="button" onClick={() => client.dismissRefusal()}>
            Dismiss
          </button>
        </div>
      )}
      {ended && !view?.result && (
        <section
          className="panel end-screen"
          aria-label="Result"
          data-winner={presence?.result?.winnerSide ?? 'none'}
        >
          {presence?.result ? (
            <>
              <h2>The {presence.result.winnerSide} wins</h2>
              <p>
                {presence.result.reason === 'resigned'
                  ? `The ${presence.result.winnerSide === 'US' ? 'USSR' : 'US'} resigned.`
                  : `The match ended (${presence.result.reason}).`}
              </p>
            </>
          ) : (
            <h2>This match was closed before it began.</h2>
          )}
        </section>
      )}
      {opponentMissing && !ended && waitingNote}
      {view ? (
        <MatchView
          view={view}
          seat={seat}
          names={names}
          log={game.log}
          recent={game.recent}
          pending={game.pending}
          connected={game.connection === 'online' && game.synced}
          onMove={(move: MoveName, args: unknown[]) => void client.makeMove(move, args)}
        />
      ) : (
        <p className="loading">Loading the table…</p>
      )}
      {seat !== null && credentials && presence && !ended && (
        <LeaveMatch
          matchID={matchID}
          seat={seat}
          credentials={credentials}
          playing={presence.status !== 'waiting' && !opponentMissing}
        />
      )}
    </main>
  );
}
