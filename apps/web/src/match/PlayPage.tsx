import { CopyLink } from '../app/CopyLink.tsx';
import { Link } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { MatchScreen } from './MatchScreen.tsx';
import { loadSeat } from './seatStore.ts';

/** A player's page: the seat and credentials this browser keeps for the match. */
export function PlayPage({ matchID }: { matchID: string }) {
  const held = loadSeat(matchID);
  if (!held) {
    return (
      <main className="page">
        <section className="panel" role="alert">
          <h2>No seat in this match on this browser</h2>
          <p>
            Open the invite link you were sent to take a seat, or{' '}
            <Link to={paths.watch(matchID)}>watch the match</Link>.
          </p>
        </section>
      </main>
    );
  }
  const waitingNote = held.links && (
    <section className="panel waiting" aria-label="Invite">
      <p>Waiting for your opponent. Send them the invite link:</p>
      <CopyLink label="Invite link" url={held.links.invite} />
      <CopyLink label="Spectator link" url={held.links.spectate} />
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
