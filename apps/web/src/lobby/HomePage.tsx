import type {
  CreateMatchRequest,
  CreateMatchResponse,
  DeckList,
  MatchInfo,
} from '@iron-curtain/protocol';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyLink } from '../app/CopyLink.tsx';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { ClockChoice, clockFromForm } from '../features/clock/ClockChoice.tsx';
import { FeatureLinks } from '../features/FeatureLinks.tsx';
import { BotDemo } from '../features/opponent/BotDemo.tsx';
import { OpponentChoice, opponentFromForm } from '../features/opponent/OpponentChoice.tsx';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { saveSeat } from '../match/seatStore.ts';
import { lobby } from './api.ts';

const absolute = (path: string) => new URL(path, window.location.origin).href;

function CreateMatchForm({ onCreated }: { onCreated: (created: CreateMatchResponse) => void }) {
  const { t } = useTranslation();
  const words = useGameWords();
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
      ...clockFromForm(form),
      ...opponentFromForm(form),
    };
    if (request.name.trim() === '') {
      setError(t('home.enterName'));
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
      // Against the computer both seats are taken at once: straight to the table.
      if (request.opponent !== 'human') navigate(paths.match(created.matchID));
      else onCreated(created);
    } catch (e) {
      setError(errorWords(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel create-form" onSubmit={submit} aria-label={t('home.createTitle')}>
      <h2>{t('home.createTitle')}</h2>
      <label>
        {t('home.yourName')} <input name="name" maxLength={24} autoComplete="nickname" required />
      </label>
      <fieldset>
        <legend>{t('home.playAs')}</legend>
        {(['US', 'USSR', 'random'] as const).map((side) => (
          <label key={side} className="inline">
            <input type="radio" name="side" value={side} defaultChecked={side === 'random'} />
            {side === 'random' ? t('home.random') : words.theSide(side)}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>{t('home.editionRules')}</legend>
        <label>
          {t('home.aftermath')}
          <select name="aftermathCap" defaultValue="3">
            <option value="3">{t('home.aftermathCap3')}</option>
            <option value="none">{t('home.aftermathNoCap')}</option>
          </select>
        </label>
        <label>
          {t('home.finalOrder')}
          <select name="finalScoringOrder" defaultValue="standard">
            <option value="standard">{t('home.finalStandard')}</option>
            <option value="polish">{t('home.finalPolish')}</option>
          </select>
        </label>
      </fieldset>
      {decks.length > 1 && (
        <label>
          {t('home.deck')}
          <select name="deckId" defaultValue={decks[0]?.hash}>
            {decks.map((deck) => (
              <option key={deck.hash} value={deck.hash}>
                {t('home.deckOption', { name: deck.name, version: deck.version })}
                {deck.reconstructed ? t('home.deckReconstructed') : ''}
              </option>
            ))}
          </select>
        </label>
      )}
      <OpponentChoice />
      <ClockChoice />
      <fieldset>
        <legend>{t('home.whoCanFind')}</legend>
        <label className="inline">
          <input type="radio" name="visibility" value="private" defaultChecked />{' '}
          {t('home.private')}
        </label>
        <label className="inline">
          <input type="radio" name="visibility" value="public" /> {t('home.public')}
        </label>
      </fieldset>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary" disabled={busy}>
        {busy ? t('home.creating') : t('home.create')}
      </button>
    </form>
  );
}

function Created({ created }: { created: CreateMatchResponse }) {
  const { t } = useTranslation();
  const words = useGameWords();
  return (
    <section
      className="panel created"
      aria-label={t('home.readyTitle', { side: words.theSide(created.side) })}
    >
      <h2>{t('home.readyTitle', { side: words.theSide(created.side) })}</h2>
      <p>{t('home.readyText')}</p>
      <CopyLink label={t('home.inviteLink')} url={absolute(created.links.invite)} />
      <CopyLink label={t('home.spectatorLink')} url={absolute(created.links.spectate)} />
      <button
        type="button"
        className="primary"
        onClick={() => navigate(paths.match(created.matchID))}
      >
        {t('home.goToTable')}
      </button>
    </section>
  );
}

function LiveMatches() {
  const { t } = useTranslation();
  const words = useGameWords();
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
      setError(errorWords(t, e));
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <section className="panel live-matches" aria-label={t('home.publicTitle')}>
      <h2>{t('home.publicTitle')}</h2>
      {error && <p className="error">{error}</p>}
      {matches?.length === 0 && <p>{t('home.noPublic')}</p>}
      <ul>
        {matches?.map((m) => (
          <li key={m.matchID}>
            {m.players.map((p) => `${words.side(p.side)}: ${p.name ?? '…'}`).join(t('home.versus'))}{' '}
            ({t(`home.status_${m.status}`)}
            {m.spectators > 0 ? t('home.watching', { count: m.spectators }) : ''}){' '}
            <Link to={paths.watch(m.matchID)}>{t('home.watch')}</Link>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => void load()}>
        {t('home.refresh')}
      </button>
    </section>
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const [created, setCreated] = useState<CreateMatchResponse | null>(null);
  return (
    <main className="page home-page">
      <header className="title">
        <h1>{t('app.title')}</h1>
        <p>{t('app.tagline')}</p>
      </header>
      <section className="panel learn" aria-label={t('home.learnTitle')}>
        <h2>{t('home.learnTitle')}</h2>
        <p>{t('home.learnText')}</p>
        <p className="learn-links">
          <Link to={paths.rules()}>{t('app.rules')}</Link>
          <Link to={paths.tutorial()}>{t('app.tutorial')}</Link>
          <Link to={paths.hotseat()}>{t('app.hotseat')}</Link>
        </p>
      </section>
      {created ? <Created created={created} /> : <CreateMatchForm onCreated={setCreated} />}
      <LiveMatches key={created?.matchID ?? 'start'} />
      <BotDemo />
      <p className="deck-note">{t('home.deckNote')}</p>
      <FeatureLinks />
    </main>
  );
}
