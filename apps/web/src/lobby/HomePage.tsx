import type {
  CreateMatchRequest,
  CreateMatchResponse,
  DeckList,
  MatchInfo,
} from '@iron-curtain/protocol';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CopyLink } from '../app/CopyLink.tsx';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { saveSeat } from '../match/seatStore.ts';
import { errorMessage, lobby } from './api.ts';

const absolute = (path: string) => new URL(path, window.location.origin).href;

function CreateMatchForm({ onCreated }: { onCreated: (created: CreateMatchResponse) => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [decks, setDecks] = useState<DeckList['decks']>([]);

  useEffect(() => {
    // Without the list the server's default deck is used; the form works either way.
    lobby.listDecks().then(
      (list) => setDecks(list.decks),
      () => setDecks([]),
    );
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const request: CreateMatchRequest = {
      name: String(form.get('name') ?? ''),
      side: form.get('side') as CreateMatchRequest['side'],
      visibility: form.get('visibility') as 'public' | 'private',
      variants: {
        aftermathCap: form.get('aftermathCap') === 'none' ? null : 3,
        finalScoringOrder: form.get('finalScoringOrder') === 'polish' ? 'polish' : 'standard',
      },
      ...(form.get('deckId') ? { deckId: String(form.get('deckId')) } : {}),
    };
    if (request.name.trim() === '') {
      setError('Enter a name for yourself.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const created = await lobby.createMatch(request);
      saveSeat(created, {
        name: request.name.trim(),
        links: {
          invite: absolute(created.links.invite),
          spectate: absolute(created.links.spectate),
        },
      });
      onCreated(created);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel create-form" onSubmit={submit} aria-label="Create a match">
      <h2>Create a match</h2>
      <label>
        Your name <input name="name" maxLength={24} autoComplete="nickname" required />
      </label>
      <fieldset>
        <legend>Play as</legend>
        {(['US', 'USSR', 'random'] as const).map((side) => (
          <label key={side} className="inline">
            <input type="radio" name="side" value={side} defaultChecked={side === 'random'} />
            {side === 'random' ? 'Random' : `the ${side}`}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Edition rules</legend>
        <label>
          Aftermath
          <select name="aftermathCap" defaultValue="3">
            <option value="3">at most 3 IP (English, Polish, French)</option>
            <option value="none">no cap (German)</option>
          </select>
        </label>
        <label>
          Final scoring order
          <select name="finalScoringOrder" defaultValue="standard">
            <option value="standard">standard (English, German)</option>
            <option value="polish">Polish: Central before South America</option>
          </select>
        </label>
      </fieldset>
      {decks.length > 1 && (
        <label>
          Deck
          <select name="deckId" defaultValue={decks[0]?.id}>
            {decks.map((deck) => (
              <option key={deck.id} value={deck.id}>
                {deck.name} (version {deck.version})
                {deck.reconstructed ? ', partly reconstructed' : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <fieldset>
        <legend>Who can find it</legend>
        <label className="inline">
          <input type="radio" name="visibility" value="private" defaultChecked /> Private: only
          people with the link
        </label>
        <label className="inline">
          <input type="radio" name="visibility" value="public" /> Public: listed for spectators
        </label>
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? 'Creating…' : 'Create the match'}
      </button>
    </form>
  );
}

function Created({ created }: { created: CreateMatchResponse }) {
  return (
    <section className="panel created" aria-label="Your match">
      <h2>Your match is ready: you play the {created.side}</h2>
      <p>Send the invite link to your opponent. Anyone with the spectator link can watch.</p>
      <CopyLink label="Invite link" url={absolute(created.links.invite)} />
      <CopyLink label="Spectator link" url={absolute(created.links.spectate)} />
      <button
        type="button"
        className="primary"
        onClick={() => navigate(paths.match(created.matchID))}
      >
        Go to the table
      </button>
    </section>
  );
}

function LiveMatches() {
  const [matches, setMatches] = useState<MatchInfo[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    try {
      const [playing, waiting] = await Promise.all([
        lobby.listMatches('playing'),
        lobby.listMatches('waiting'),
      ]);
      setMatches([...playing.matches, ...waiting.matches]);
      setError(null);
    } catch (e) {
      setError(errorMessage(e));
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="panel live-matches" aria-label="Public matches">
      <h2>Public matches to watch</h2>
      {error && <p className="error">{error}</p>}
      {matches?.length === 0 && <p>No public match right now.</p>}
      <ul>
        {matches?.map((m) => (
          <li key={m.matchID}>
            {m.players.map((p) => `${p.side}: ${p.name ?? '…'}`).join(' vs ')} ({m.status}
            {m.spectators > 0 ? `, ${m.spectators} watching` : ''}){' '}
            <Link to={paths.watch(m.matchID)}>Watch</Link>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => void load()}>
        Refresh
      </button>
    </section>
  );
}

export function HomePage() {
  const [created, setCreated] = useState<CreateMatchResponse | null>(null);
  return (
    <main className="page home-page">
      <header className="title">
        <h1>Iron Curtain</h1>
        <p>The two-player Cold War card game, live in the browser.</p>
      </header>
      {created ? <Created created={created} /> : <CreateMatchForm onCreated={setCreated} />}
      <LiveMatches key={created?.matchID ?? 'start'} />
      <p className="deck-note">
        The default deck is partly a reconstruction: the published card texts are not available to
        this project. Reconstructed fields are marked ◇ on every card.
      </p>
    </main>
  );
}
