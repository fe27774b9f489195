import '../features.css';
import {
  type LogEntry,
  type MatchRecord,
  ReplayError,
  type ReplayStep,
  replaySteps,
  type Seat,
} from '@iron-curtain/game';
import type { MatchAnalysis } from '@iron-curtain/protocol/analysis';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnalysisPanel } from '../../analysis/AnalysisPanel.tsx';
import { useMediaQuery } from '../../app/motion.ts';
import type { TableMarks } from '../../board/Board.tsx';
import { MatchView } from '../../board/MatchView.tsx';

/** Every position of a record, or why it cannot be replayed. */
export function stepsOf(record: MatchRecord): { steps: ReplayStep[]; error: string | null } {
  const steps: ReplayStep[] = [];
  try {
    for (const step of replaySteps(record)) steps.push(step);
    return { steps, error: null };
  } catch (error) {
    const reason = error instanceof ReplayError || error instanceof Error ? error.message : '';
    return { steps, error: reason };
  }
}

const noMove = () => undefined;

/** A record played back move by move through the engine, with the table as a spectator sees it. */
export function ReplayViewer({
  record,
  analysis = null,
}: {
  record: MatchRecord;
  /** An analysis saved with the record file, shown without searching again. */
  analysis?: MatchAnalysis | null;
}) {
  const { t } = useTranslation();
  const { t: tMain } = useTranslation();
  const { steps, error } = useMemo(() => stepsOf(record), [record]);
  const desktop = useMediaQuery('(min-width: 1024px)');
  const [at, setAt] = useState(0);
  // A better move the analysis shows: marked while the replay stays before that move.
  const [better, setBetter] = useState<{ at: number; marks: TableMarks } | null>(null);
  // The marked cell or card comes into view, wherever the list of marks was scrolled to.
  useEffect(() => {
    if (!better) return;
    document
      .querySelector('.replay .marked-cell, .replay .table-card.marked')
      ?.scrollIntoView?.({ block: 'center' });
  }, [better]);
  const last = steps.length - 1;
  const step = steps[Math.min(at, last)];
  const log = useMemo<LogEntry[]>(
    () => steps.slice(0, at + 1).flatMap((s) => s.entries),
    [steps, at],
  );
  if (error !== null && steps.length === 0) {
    return (
      <p className="error" role="alert">
        {t('replay.failed', { reason: error })}
      </p>
    );
  }
  if (!step) return null;
  // Records saved before names were recorded name the players by their side.
  const sides = record.setupData.sides;
  const shown: Record<Seat, string> = record.names ?? {
    '0': tMain(`hotseat.default${sides['0']}`),
    '1': tMain(`hotseat.default${sides['1']}`),
  };
  const go = (index: number) => setAt(Math.max(0, Math.min(last, index)));
  // The analysis sits in the side column, and on a desktop the controls top it, so the table
  // keeps the window's height, as on the match page; narrower, the column folds under the
  // table, and the controls stay above it.
  const controls = (
    <nav className="panel replay-controls" aria-label={t('replay.title')}>
      <button type="button" onClick={() => go(0)} disabled={at === 0}>
        {t('replay.first')}
      </button>
      <button type="button" onClick={() => go(at - 1)} disabled={at === 0}>
        {t('replay.previous')}
      </button>
      <button type="button" onClick={() => go(at + 1)} disabled={at === last}>
        {t('replay.next')}
      </button>
      <button type="button" onClick={() => go(last)} disabled={at === last}>
        {t('replay.last')}
      </button>
      <label>
        {t('replay.position')}{' '}
        <input
          type="range"
          min={0}
          max={last}
          value={at}
          onChange={(event) => go(Number(event.currentTarget.value))}
        />
      </label>
      <output aria-live="polite">
        {at === 0 ? t('replay.start') : t('replay.move', { index: at, count: last })}
      </output>
    </nav>
  );
  const aside = (
    <>
      {error === null && (
        <AnalysisPanel
          record={record}
          steps={steps}
          at={at}
          onJump={go}
          onShow={(before, marks) => {
            go(before);
            setBetter({ at: before, marks });
          }}
          saved={analysis}
        />
      )}
      {better?.at === at && (
        <p className="analysis-shown" role="status">
          {t('analysisWords.shown', { index: at + 1 })}
        </p>
      )}
    </>
  );
  return (
    <div className="replay" data-replay-step={at}>
      {error !== null && (
        <p className="error" role="alert">
          {t('replay.failed', { reason: error })}
        </p>
      )}
      {!desktop && controls}
      <MatchView
        rules={step.rules}
        view={step.state}
        seat={null}
        names={shown}
        log={log}
        recent={step.entries}
        pending={false}
        // Nothing to connect to: a record plays here, and a spectator's seat is offered no move
        // (without it, the prompt said "Not connected" under every position).
        connected
        onMove={noMove}
        marks={better?.at === at ? better.marks : undefined}
        bar={desktop ? controls : undefined}
        aside={aside}
      />
    </div>
  );
}
