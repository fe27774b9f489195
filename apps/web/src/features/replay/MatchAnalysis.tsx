import { type MatchRecord, matchRecordSchema } from '@iron-curtain/game';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnalysisPanel } from '../../analysis/AnalysisPanel.tsx';
import { Link } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { useErrorWords } from '../../i18n/errorWords.ts';
import { lobby } from '../../lobby/api.ts';
import { stepsOf } from './ReplayViewer.tsx';

/**
 * The analysis of a finished match of this server, opened on its table: its stored record read
 * once, then the same analysis as the replay's. Moves are stepped through in the replay.
 */
export function MatchAnalysis({ matchID }: { matchID: string }) {
  const { t } = useTranslation();
  const errorText = useErrorWords();
  const [record, setRecord] = useState<MatchRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    lobby.record(matchID).then(
      (json) => {
        if (!live) return;
        const parsed = matchRecordSchema.safeParse(json);
        if (parsed.success) setRecord(parsed.data);
        else setError(parsed.error.issues.map((i) => i.message).join('; '));
      },
      (e: unknown) => {
        if (live) setError(errorText(e));
      },
    );
    return () => {
      live = false;
    };
  }, [matchID, errorText]);
  const replayed = useMemo(() => (record ? stepsOf(record) : null), [record]);
  if (error !== null || (replayed && replayed.error !== null))
    return (
      <p className="error" role="alert">
        {t('replay.failed', { reason: error ?? replayed?.error })}
      </p>
    );
  if (!record || !replayed) return <p className="loading">{t('replay.loading')}</p>;
  return (
    <>
      <AnalysisPanel record={record} steps={replayed.steps} saved={null} />
      <p className="analysis-replay">
        {t('endStage.stepThrough')} <Link to={paths.replay(matchID)}>{t('replay.watch')}</Link>
      </p>
    </>
  );
}
