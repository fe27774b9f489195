import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { LobbyError, lobby } from '../../lobby/api.ts';

/** Starts a match between two computer players and opens it for watching. */
export function BotDemo() {
  const { t } = useTranslation();
  const errorText = useErrorWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await lobby.botDemo({ levels: { US: 'hard', USSR: 'hard' } });
      navigate(paths.watch(created.matchID));
    } catch (e) {
      setError(e instanceof LobbyError ? errorText(e) : t('demo.failed'));
      setBusy(false);
    }
  };
  return (
    <section className="panel bot-demo" aria-label={t('demo.title')}>
      <h2>{t('demo.title')}</h2>
      <p>{t('demo.text')}</p>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <button type="button" className="secondary" disabled={busy} onClick={() => void start()}>
        {busy ? t('demo.busy') : t('demo.button')}
      </button>
    </section>
  );
}
