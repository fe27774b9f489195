import type { MatchRecord } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { Link } from '../../app/router.tsx';
import { paths } from '../../app/routes.ts';
import { ReplayViewer } from './ReplayViewer.tsx';
import { useMatchRecord } from './useMatchRecord.ts';

/** Offers a record as a file to save (the import page reads it back). */
export function ExportRecord({ record, matchID }: { record: MatchRecord; matchID: string }) {
  const { t } = useTranslation();
  const href = `data:application/json;charset=utf-8,${encodeURIComponent(JSON.stringify(record, null, 2))}`;
  return (
    <a className="button secondary" href={href} download={`iron-curtain-${matchID}.json`}>
      {t('replay.export')}
    </a>
  );
}

/** The replay of a finished match of this server, from its stored move log. */
export function ReplayPage({ matchID }: { matchID: string }) {
  const { t } = useTranslation();
  const { record, error } = useMatchRecord(matchID);
  return (
    // With the record here the page is one screen on a desktop, as the match page is.
    <main className={`page replay-page${record ? ' match-page' : ''}`}>
      <header className="panel replay-head">
        <h1>{t('replay.title')}</h1>
        {record && <ExportRecord record={record} matchID={matchID} />}{' '}
        <Link to={paths.replayImport()}>{t('replay.importLink')}</Link>
      </header>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {!record && !error && <p className="loading">{t('replay.loading')}</p>}
      {record && <ReplayViewer record={record} />}
    </main>
  );
}
