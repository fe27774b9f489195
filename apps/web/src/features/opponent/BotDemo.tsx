import { useState } from 'react';
import { navigate } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { FeatureError, featureApi } from '../api.ts';
import { useFeatureTranslation } from '../i18n/features.ts';

/** Starts a match between two computer players and opens it for watching. */
export function BotDemo() {
  const { t } = useFeatureTranslation();
  const errorText = useErrorWords();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await featureApi.botDemo({ levels: { US: 'hard', USSR: 'hard' } });
      navigate(paths.watch(created.matchID));
    } catch (e) {
      setError(e instanceof FeatureError ? errorText(e) : t('demo.failed'));
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
