import { useTranslation } from 'react-i18next';
import '../features.css';
import { AnalysisFileError, readAnalysedRecord } from '@iron-curtain/bots';
import type { MatchRecord } from '@iron-curtain/game';
import type { AnalysisFileErrorCode, MatchAnalysis } from '@iron-curtain/protocol/analysis';
import { useState } from 'react';
import { ReplayViewer } from './ReplayViewer.tsx';

/**
 * The largest record file the page reads: a whole match with its deck and analysis is a few
 * hundred kB, and a browser tab reading a file of any size could be made to hang.
 */
export const MAX_RECORD_FILE_BYTES = 4 * 1024 * 1024;

/** Reads a record file, plain or saved with its analysis, or says why it is neither. */
export async function readRecordFile(
  file: Blob,
): Promise<
  | { record: MatchRecord; analysis: MatchAnalysis | null }
  | { notJson: true }
  | { tooLarge: true }
  | { code: AnalysisFileErrorCode; issues: string[] }
> {
  // Refused by its size alone, before a byte of it is read.
  if (file.size > MAX_RECORD_FILE_BYTES) return { tooLarge: true };
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch {
    return { notJson: true };
  }
  try {
    return readAnalysedRecord(json);
  } catch (error) {
    if (error instanceof AnalysisFileError) return { code: error.code, issues: error.issues };
    throw error;
  }
}

/** Drop (or choose) a record file, validated with the engine's schema, and replay it. */
export function ReplayImportPage() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState<{
    record: MatchRecord;
    analysis: MatchAnalysis | null;
    /** Counts the files opened: a new file starts a new viewer, not the old one's position. */
    serial: number;
  } | null>(null);
  const [problem, setProblem] = useState<{ title: string; issues: string[] } | null>(null);

  const open = async (file: Blob | undefined) => {
    if (!file) return;
    const read = await readRecordFile(file);
    if ('record' in read) {
      setOpened((before) => ({ ...read, serial: (before?.serial ?? 0) + 1 }));
      setProblem(null);
    } else {
      setOpened(null);
      setProblem(
        'notJson' in read
          ? { title: t('importPage.notJson'), issues: [] }
          : 'tooLarge' in read
            ? {
                title: t('importPage.tooLarge', { mb: MAX_RECORD_FILE_BYTES / 1024 / 1024 }),
                issues: [],
              }
            : { title: t(`analysis.fileErrors.${read.code}`), issues: read.issues },
      );
    }
  };

  return (
    // With a record open the page is one screen on a desktop, as the match page is.
    <main className={`page replay-page${opened ? ' match-page' : ''}`}>
      <section className="panel drop-zone replay-head">
        <h1>{t('importPage.title')}</h1>
        <p>{t('importPage.intro')}</p>
        {/* A file dropped on the field opens like a chosen one. */}
        <label className="drop-target">
          {t('importPage.choose')}{' '}
          <input
            type="file"
            accept="application/json,.json"
            onChange={(event) => void open(event.currentTarget.files?.[0])}
          />
        </label>
        {problem && (
          <div className="error" role="alert">
            <p>{problem.title}</p>
            {problem.issues.length > 0 && (
              <ul>
                {problem.issues.map((issue) => (
                  <li key={issue}>{issue}</li>
                ))}
              </ul>
            )}
          </div>
        )}
      </section>
      {opened && (
        <ReplayViewer key={opened.serial} record={opened.record} analysis={opened.analysis} />
      )}
    </main>
  );
}
