import { useTranslation } from 'react-i18next';
import '../features.css';
import { DeckError, loadDeck } from '@iron-curtain/game';
import { type DeckList, MAX_DECK_BYTES } from '@iron-curtain/protocol';
import { useCallback, useEffect, useState } from 'react';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { type FieldIssue, LobbyError, lobby } from '../../lobby/api.ts';

type Outcome =
  | { kind: 'issues'; issues: FieldIssue[] }
  | { kind: 'message'; message: string }
  | { kind: 'stored'; name: string; version: string };

/** Checks a deck file here first (the engine's loadDeck), so most errors show without a round trip. */
export function checkDeckText(text: string): { json: unknown } | { problem: Outcome } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { problem: { kind: 'message', message: 'notJson' } };
  }
  try {
    loadDeck(json);
  } catch (error) {
    if (error instanceof DeckError) return { problem: { kind: 'issues', issues: error.issues } };
    throw error;
  }
  return { json };
}

/** An owner of the printed game uploads a corrected deck file; it is then offered at match creation. */
export function DeckUploadPage() {
  const { t } = useTranslation();
  const errorText = useErrorWords();
  const [decks, setDecks] = useState<DeckList['decks']>([]);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(
    () =>
      lobby.listDecks().then(
        (list) => setDecks(list.decks),
        () => setDecks([]),
      ),
    [],
  );
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const upload = async (file: File | undefined) => {
    if (!file) return;
    if (file.size > MAX_DECK_BYTES) {
      setOutcome({ kind: 'message', message: t('decksPage.tooLarge') });
      return;
    }
    const checked = checkDeckText(await file.text());
    if ('problem' in checked) {
      const { problem } = checked;
      setOutcome(
        problem.kind === 'message' ? { kind: 'message', message: t('decksPage.notJson') } : problem,
      );
      return;
    }
    setBusy(true);
    try {
      const { deck } = await lobby.uploadDeck(checked.json);
      setOutcome({ kind: 'stored', name: deck.name, version: deck.version });
      await refresh();
    } catch (e) {
      setOutcome(
        e instanceof LobbyError && e.issues.length > 0
          ? { kind: 'issues', issues: e.issues }
          : {
              kind: 'message',
              message: errorText(e),
            },
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="page decks-page">
      <section className="panel">
        <h1>{t('decksPage.title')}</h1>
        <p>{t('decksPage.intro')}</p>
        <label>
          {t('decksPage.choose')}{' '}
          <input
            type="file"
            accept="application/json,.json"
            disabled={busy}
            onChange={(event) => void upload(event.currentTarget.files?.[0])}
          />
        </label>
        {busy && <p>{t('decksPage.uploading')}</p>}
        {outcome?.kind === 'issues' && (
          <div className="error" role="alert">
            <p>{t('decksPage.errors')}</p>
            <ul className="field-errors">
              {outcome.issues.map((issue) => (
                <li key={`${issue.path}:${issue.message}`}>
                  <code>{issue.path}</code>: {issue.message}
                </li>
              ))}
            </ul>
          </div>
        )}
        {outcome?.kind === 'message' && (
          <p className="error" role="alert">
            {outcome.message}
          </p>
        )}
        {outcome?.kind === 'stored' && (
          <p role="status">
            {t('decksPage.stored', { name: outcome.name, version: outcome.version })}
          </p>
        )}
      </section>
      <section className="panel" aria-label={t('decksPage.known')}>
        <h2>{t('decksPage.known')}</h2>
        <ul>
          {decks.map((deck) => (
            <li key={deck.hash} data-hash={deck.hash}>
              {deck.name} ({deck.version}
              {deck.reconstructed ? `, ${t('deck.reconstructed')}` : ''}){' '}
              <code>{deck.hash.slice(0, 12)}</code>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
