import type { Seat, State } from '@iron-curtain/game';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { ResultWords } from './EndScreen.tsx';
import { FinalScoringShow } from './FinalScoringShow.tsx';
import type { ScoringShow } from './scoringShow.ts';

/** What a live match offers once it is over, beside the result on the table's stage. */
export interface Ending {
  /** Controls of the result's banner (a player's rematch). */
  actions?: ReactNode;
  /** The match's analysis, opened over the table from the banner. */
  analysis?: ReactNode;
}

/**
 * What the stage shows: the final scoring playing over the dimmed table, the result's banner
 * over the table's top edge, the analysis over the table, or the table alone with a bar to
 * bring the result back.
 */
type Stage = 'show' | 'banner' | 'analysis' | 'table';

/** Fields the keyboard types into. */
const TYPING =
  'input:not([type="button"], [type="checkbox"], [type="radio"]), textarea, [contenteditable="true"]';

/** The element the keyboard is on, unless nothing is. */
const focused = (): HTMLElement | null => {
  const el = document.activeElement;
  return el instanceof HTMLElement && el !== document.body ? el : null;
};

/**
 * The end of a live match on the table's own area, not in the side column: the final scoring
 * step by step over the dimmed table, then the winner in a banner with the analysis, the rematch
 * and the table itself a click away. The keyboard follows: into the stage when the end comes and
 * whenever it changes, back where it was when the table is shown; Escape skips the show, closes
 * the analysis, then the banner.
 */
export function EndStage({
  view,
  names,
  show,
  ending,
}: {
  view: State;
  names: Record<Seat, string>;
  show: ScoringShow;
  ending: Ending;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const [dismissed, setDismissed] = useState(false);
  const [analysing, setAnalysing] = useState(false);
  // Mounted from its first opening on, so a running analysis outlives a look at the table.
  const [analysisOpened, setAnalysisOpened] = useState(false);
  const stage: Stage = !show.revealed
    ? 'show'
    : analysing
      ? 'analysis'
      : dismissed
        ? 'table'
        : 'banner';
  const here = useRef<HTMLElement>(null);
  const before = useRef<HTMLElement | null>(null);
  const analysisButton = useRef<HTMLButtonElement>(null);
  const resultButton = useRef<HTMLButtonElement>(null);
  const last = useRef<Stage | null>(null);

  useEffect(() => {
    const from = last.current;
    last.current = stage;
    if (from === stage) return;
    // Where the keyboard was when the end came: it goes back there with the table.
    if (from === null) before.current = focused();
    const root = here.current;
    if (!root) return;
    root.scrollIntoView?.({ block: 'nearest' });
    // A player typing (a line of chat) keeps the keyboard: the stage does not take it mid-word.
    const now = focused();
    if (now && !root.contains(now) && now.matches(TYPING)) return;
    if (stage === 'table') {
      // A control that left or was disabled with the end cannot take it: the bar's button does.
      before.current?.focus({ preventScroll: true });
      if (document.activeElement !== before.current)
        resultButton.current?.focus({ preventScroll: true });
    } else if (stage === 'banner' && from === 'analysis') {
      analysisButton.current?.focus({ preventScroll: true });
    } else {
      root
        .querySelector<HTMLElement>('[data-stage-focus]:not([hidden] *)')
        ?.focus({ preventScroll: true });
    }
  }, [stage]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      // An Escape elsewhere (a card's zoom, the chat) is that control's own.
      const where = focused();
      if (where && !here.current?.contains(where)) return;
      if (stage === 'show') show.skip();
      else if (stage === 'analysis') setAnalysing(false);
      else if (stage === 'banner') setDismissed(true);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [stage, show]);

  const result = view.result;
  if (!result) return null;
  return (
    <section
      ref={here}
      className="end-stage end-screen"
      data-stage={stage}
      aria-label={t('match.result')}
      data-winner={result.winnerSide}
      data-revealed={show.revealed}
    >
      {stage === 'show' && (
        <div className="stage-panel">
          <h2 tabIndex={-1} data-stage-focus>
            {t('finalReveal.heading')}
          </h2>
          <FinalScoringShow view={view} show={show} stepOnly />
        </div>
      )}
      {stage === 'banner' && (
        <div className="stage-banner">
          <div className="stage-words">
            <ResultWords view={view} names={names} focusTarget />
          </div>
          <div className="choices">
            {ending.analysis && (
              <button
                ref={analysisButton}
                type="button"
                className="primary"
                data-open-analysis
                onClick={() => {
                  setAnalysisOpened(true);
                  setAnalysing(true);
                }}
              >
                {t('endStage.analysis')}
              </button>
            )}
            {ending.actions}
            <button type="button" data-show-table onClick={() => setDismissed(true)}>
              {t('endStage.showTable')}
            </button>
          </div>
        </div>
      )}
      {analysisOpened && ending.analysis && (
        <div
          className="stage-analysis"
          role="dialog"
          aria-label={t('endStage.analysisLabel')}
          // The panel itself takes the keyboard when it opens, as a dialog does.
          tabIndex={-1}
          data-stage-focus
          hidden={stage !== 'analysis'}
        >
          <button
            type="button"
            className="secondary stage-close"
            onClick={() => setAnalysing(false)}
          >
            {t('endStage.closeAnalysis')}
          </button>
          {ending.analysis}
        </div>
      )}
      {stage === 'table' && (
        <div className="stage-bar">
          <p>
            {t('end.wins', {
              side: words.TheSide(result.winnerSide),
              name: names[view.sides['0'] === result.winnerSide ? '0' : '1'],
            })}
          </p>
          <button
            ref={resultButton}
            type="button"
            className="secondary"
            onClick={() => setDismissed(false)}
          >
            {t('endStage.showResult')}
          </button>
        </div>
      )}
    </section>
  );
}
