import type {
  CreateMatchRequest,
  CreateMatchResponse,
  DeckList,
  MatchInfo,
} from '@iron-curtain/protocol';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyLink } from '../app/CopyLink.tsx';
import { PlayerName } from '../app/PlayerName.tsx';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { ClockChoice, clockFromForm } from '../features/clock/ClockChoice.tsx';
import { FeatureLinks } from '../features/FeatureLinks.tsx';
import { BotDemo } from '../features/opponent/BotDemo.tsx';
import { errorWords } from '../i18n/errorWords.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { saveSeat } from '../match/seatStore.ts';
import { lobby } from './api.ts';
import { MyGames } from './MyGames.tsx';
import { OpenChallenges } from './OpenChallenges.tsx';
import { rememberedName, type Seating, type Sitter, seated } from './playerName.ts';
import { SeatName } from './SeatName.tsx';
import { useLobbyAction } from './useLobbyAction.ts';
import './home.css';

const absolute = (path: string) => new URL(path, window.location.origin).href;

const LEVELS = ['easy', 'medium', 'hard'] as const;

/** Creates a match for `sitter`, keeps its seat on this browser, and answers the lobby's reply. */
async function createFor(
  sitter: Sitter,
  request: Omit<CreateMatchRequest, 'name'>,
): Promise<CreateMatchResponse> {
  const created = await lobby.createMatch({ ...request, ...sitter.request });
  saveSeat(created, {
    name: sitter.name,
    links: {
      invite: absolute(created.links.invite),
      spectate: absolute(created.links.spectate),
    },
  });
  seated(sitter);
  return created;
}

function MoreOptions() {
  const { t } = useTranslation();
  const words = useGameWords();
  const [decks, setDecks] = useState<DeckList['decks']>([]);
  useEffect(() => {
    // Without the list the server's default deck is used; the form works either way.
    lobby.listDecks().then(
      (list) => setDecks(list.decks),
      () => setDecks([]),
    );
  }, []);
  return (
    <details className="more-options">
      <summary>{t('home.moreOptions')}</summary>
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
    </details>
  );
}

/**
 * Play a friend: one click creates a match with the defaults (or the options unfolded) and shows
 * the invite link; "open to anyone" lists it below instead and goes to the table to wait.
 */
function FriendTile({
  seating,
  onCreated,
}: {
  seating: Seating;
  onCreated: (created: CreateMatchResponse) => void;
}) {
  const { t } = useTranslation();
  const { busy, error, run } = useLobbyAction();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const open = form.get('open') === 'on';
    void run(seating, async (sitter) => {
      const created = await createFor(sitter, {
        side: (form.get('side') as CreateMatchRequest['side']) ?? 'random',
        visibility: open ? 'open' : form.get('visibility') === 'public' ? 'public' : 'private',
        variants: {
          aftermathCap: form.get('aftermathCap') === 'none' ? null : 3,
          finalScoringOrder: form.get('finalScoringOrder') === 'polish' ? 'polish' : 'standard',
        },
        ...(form.get('deckId') ? { deckId: String(form.get('deckId')) } : {}),
        ...clockFromForm(form),
        opponent: 'human',
      });
      // An open challenge waits at the table, which the page leaves for the game once someone takes the seat.
      if (open) navigate(paths.match(created.matchID));
      else onCreated(created);
    });
  };

  return (
    <form className="tile friend-tile" onSubmit={submit} aria-labelledby="friend-title">
      <h2 id="friend-title">{t('home.friendTitle')}</h2>
      <p>{t('home.friendText')}</p>
      <label className="inline open-choice">
        <input type="checkbox" name="open" /> {t('home.openToAnyone')}
      </label>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary big" disabled={busy}>
        {busy ? t('home.creating') : t('home.create')}
      </button>
      <MoreOptions />
    </form>
  );
}

function Created({ created }: { created: CreateMatchResponse }) {
  const { t } = useTranslation();
  const words = useGameWords();
  return (
    <section className="tile created" aria-labelledby="created-title">
      <h2 id="created-title">{t('home.readyTitle', { side: words.theSide(created.side) })}</h2>
      <p>{t('home.readyText')}</p>
      <CopyLink label={t('home.inviteLink')} url={absolute(created.links.invite)} />
      <CopyLink label={t('home.spectatorLink')} url={absolute(created.links.spectate)} />
      <button
        type="button"
        className="primary big"
        onClick={() => navigate(paths.match(created.matchID))}
      >
        {t('home.goToTable')}
      </button>
    </section>
  );
}

/** Play the computer: a level is one click; the match starts at once. */
function ComputerTile({ seating }: { seating: Seating }) {
  const { t } = useTranslation();
  const { busy, error, run } = useLobbyAction();
  const play = (level: (typeof LEVELS)[number]) =>
    run(seating, async (sitter) => {
      const created = await createFor(sitter, { opponent: level });
      navigate(paths.match(created.matchID));
    });
  return (
    <section className="tile computer-tile" aria-labelledby="computer-title">
      <h2 id="computer-title">{t('home.computerTitle')}</h2>
      <p>{t('home.computerText')}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <div className="levels">
        {LEVELS.map((level) => (
          <button
            key={level}
            type="button"
            className="big"
            disabled={busy}
            onClick={() => void play(level)}
          >
            {t(`home.level_${level}`)}
          </button>
        ))}
      </div>
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
      setMatches((await lobby.listMatches('playing')).matches);
      setError(null);
    } catch (e) {
      setError(errorWords(t, e));
    }
  }, [t]);
  useEffect(() => {
    void load();
  }, [load]);
  return (
    <div className="live-matches">
      <h3>{t('home.publicTitle')}</h3>
      {error && <p className="error">{error}</p>}
      {matches?.length === 0 && <p>{t('home.noPublic')}</p>}
      <ul>
        {matches?.map((m) => (
          <li key={m.matchID}>
            {m.players.map((p, i) => (
              <span key={p.seat}>
                {i > 0 && t('home.versus')}
                {words.side(p.side)}:{' '}
                {p.name === null ? (
                  '…'
                ) : (
                  <PlayerName name={p.name} account={p.account} computer={p.computer} />
                )}
              </span>
            ))}{' '}
            ({t('home.status_playing')}
            {m.spectators > 0 ? t('home.watching', { count: m.spectators }) : ''}){' '}
            <Link to={paths.watch(m.matchID)}>{t('home.watch')}</Link>
          </li>
        ))}
      </ul>
      <button type="button" className="secondary" onClick={() => void load()}>
        {t('home.refresh')}
      </button>
    </div>
  );
}

function WatchTile() {
  const { t } = useTranslation();
  return (
    <section className="tile watch-tile" aria-labelledby="watch-title">
      <h2 id="watch-title">{t('home.watchTitle')}</h2>
      <LiveMatches />
      <BotDemo />
    </section>
  );
}

/** The home page; `account`: the signed-in account, whose name every seat taken here bears. */
export function HomePage({ account }: { account: string | null }) {
  const { t } = useTranslation();
  const [name, setName] = useState(() => rememberedName() ?? t('home.defaultName'));
  const [created, setCreated] = useState<CreateMatchResponse | null>(null);
  const seating: Seating = account ? { account } : { guest: name };
  return (
    <main className="page home-page">
      <header className="title">
        <h1>{t('app.title')}</h1>
        <p>{t('app.tagline')}</p>
      </header>
      <SeatName account={account} className="home-name" value={name} onChange={setName} />
      <MyGames />
      <div className="tiles">
        {created ? (
          <Created created={created} />
        ) : (
          <FriendTile seating={seating} onCreated={setCreated} />
        )}
        <ComputerTile seating={seating} />
        <WatchTile />
      </div>
      <OpenChallenges seating={seating} />
      <section className="panel learn" aria-label={t('home.learnTitle')}>
        <h2>{t('home.learnTitle')}</h2>
        <p>{t('home.learnText')}</p>
        <p className="learn-links">
          <Link to={paths.rules()}>{t('app.rules')}</Link>
          <Link to={paths.tutorial()}>{t('app.tutorial')}</Link>
          <Link to={paths.hotseat()}>{t('app.hotseat')}</Link>
        </p>
      </section>
      <p className="deck-note">{t('home.deckNote')}</p>
      <FeatureLinks />
    </main>
  );
}
