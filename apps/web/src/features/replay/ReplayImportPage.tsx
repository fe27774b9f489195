import { useTranslation } from 'react-i18next';
import '../features.css';
import { type MatchRecord, matchRecordSchema } from '@iron-curtain/game';
import { useState } from 'react';
import { ReplayViewer } from './ReplayViewer.tsx';

const pathText = (path: readonly PropertyKey[]) => path.map(String).join('.') || '(record)';

/** Reads a record file: a match record, or every reason it is not one. */
export async function readRecordFile(
  file: Blob,
): Promise<{ record: MatchRecord } | { notJson: true } | { issues: string[] }> {
  let json: unknown;
  try {
    json = JSON.parse(await file.text());
  } catch {
    return { notJson: true };
  }
  const parsed = matchRecordSchema.safeParse(json);
  if (parsed.success) return { record: parsed.data };
  return { issues: parsed.error.issues.map((i) => `${pathText(i.path)}: ${i.message}`) };
}

/** Drop (or choose) a record file, validated with the engine's schema, and replay it. */
export function ReplayImportPage() {
  const { t } = useTranslation();
  const [record, setRecord] = useState<MatchRecord | null>(null);
  const [problem, setProblem] = useState<{ title: string; issues: string[] } | null>(null);

  const open = async (file: Blob | undefined) => {
    if (!file) return;
    const read = await readRecordFile(file);
    if ('record' in read) {
      setRecord(read.record);
      setProblem(null);
    } else {
      setRecord(null);
      setProblem(
        'notJson' in read
          ? { title: t('importPage.notJson'), issues: [] }
          : { title: t('importPage.invalid'), issues: read.issues },
      );
    }
  };

  return (
    <main className="page replay-page">
      <section className="panel drop-zone">
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
      {record && <ReplayViewer record={record} />}
    </main>
  );
}
