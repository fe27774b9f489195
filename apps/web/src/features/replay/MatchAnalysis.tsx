import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { AnalysisPanel } from '../../analysis/AnalysisPanel.tsx';
import { Link } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { stepsOf } from './ReplayViewer.tsx';
import { useMatchRecord } from './useMatchRecord.ts';

/**
 * The analysis of a finished match of this server, opened on its table: its stored record read
 * once, then the same analysis as the replay's. Moves are stepped through in the replay.
 */
export function MatchAnalysis({ matchID }: { matchID: string }) {
  const { t } = useTranslation();
  const { record, error } = useMatchRecord(matchID);
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
