import type { MatchInfo } from '@iron-curtain/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { loadSeat, saveSeat } from '../match/seatStore.ts';
import { errorMessage, lobby } from './api.ts';

/** The invite page: a name, then the free seat. */
export function JoinPage({ matchID, invite }: { matchID: string; invite: string | null }) {
  const [info, setInfo] = useState<MatchInfo | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const held = loadSeat(matchID);

  useEffect(() => {
    lobby.getMatch(matchID).then(setInfo, (e: unknown) => setError(errorMessage(e)));
  }, [matchID]);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!invite) return;
    const name = String(new FormData(event.currentTarget).get('name') ?? '').trim();
    if (name === '') {
      setError('Enter a name for yourself.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const grant = await lobby.joinMatch(matchID, { name, invite });
      saveSeat(grant, { name });
      navigate(paths.match(matchID), { replace: true });
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };

  const host = info?.players.find((p) => p.name !== null);
  const free = info?.players.find((p) => p.name === null);
  return (
    <main className="page join-page">
      <header className="title">
        <h1>Iron Curtain</h1>
      </header>
      <section className="panel" aria-label="Join the match">
        <h2>You are invited to a match</h2>
        {host && (
          <p>
            {host.name} plays the {host.side}
            {free ? `; you would play the ${free.side}.` : '.'}
          </p>
        )}
        {held ? (
          <p>
            You already hold the {held.side} seat in this match on this browser.{' '}
            <Link to={paths.match(matchID)}>Continue playing</Link>
          </p>
        ) : info && !free ? (
          <p>
            Both seats are taken. <Link to={paths.watch(matchID)}>Watch the match</Link>
          </p>
        ) : !invite ? (
          <p className="error" role="alert">
            This invite link is incomplete: ask for the link again.
          </p>
        ) : (
          <form onSubmit={submit}>
            <label>
              Your name <input name="name" maxLength={24} autoComplete="nickname" required />
            </label>
            <button type="submit" className="primary" disabled={busy}>
              {busy ? 'Joining…' : 'Take the seat and play'}
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
