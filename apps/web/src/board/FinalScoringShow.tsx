import type { State } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { useRules } from './rules.tsx';
import type { ScoringShow } from './scoringShow.ts';
import { Track } from './Track.tsx';

/**
 * Final scoring as a show: one beat at a time, the reason for every point (which card, who
 * dominates it, the bonus), the marker moving after each step. Skippable; with reduced motion
 * it waits for "Next step" instead of advancing by itself. Its pace is useScoringShow's. On the
 * live table's stage (`stepOnly`) it shows the beats of the step on screen alone, in large type,
 * so a step never scrolls; the side column of a replay keeps every beat so far.
 */
export function FinalScoringShow({
  view,
  show,
  stepOnly = false,
}: {
  view: State;
  show: ScoringShow;
  stepOnly?: boolean;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const rules = useRules();
  const { beats, shown } = show;
  const done = shown >= beats.length;
  if (beats.length === 0 || show.closed) return null;
  const current = beats[Math.min(shown, beats.length) - 1];
  const steps = view.finalScoring ?? [];
  const step = show.step;
  // The step's name; counted only when there is more than one (a match whose regions all scored
  // during play ends on the aftermath alone: "Step 1 of 1" would count nothing).
  const what =
    step?.kind === 'region'
      ? words.regionName(rules.deck, step.score.region)
      : t('table.aftermathPile');
  return (
    <section className="scoring-show" aria-label={t('scoring.title')} data-show-done={done}>
      <h3>{t('scoring.title')}</h3>
      {current && (
        <p className="scoring-progress">
          {steps.length > 1
            ? `${t('scoring.stepOf', { n: current.step + 1, total: steps.length })} · ${what}`
            : what}
        </p>
      )}
      <Track marker={show.marker} label={t('scoring.title')} />
      <ol className="scoring-beats" aria-live="polite">
        {beats.slice(0, shown).map((beat, i) =>
          stepOnly && beat.step !== current?.step ? null : (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the beats of one finished game never change
              key={i}
              data-beat={i}
              className={`scoring-beat${beat.side ? ` gain ${beat.side.toLowerCase()}` : ''}`}
            >
              {beat.side && <Flag side={beat.side} />} {beat.text}
            </li>
          ),
        )}
      </ol>
      <div className="choices">
        {!done && (
          <button type="button" className="secondary" onClick={show.next}>
            {t('scoring.next')}
          </button>
        )}
        {done ? (
          <button type="button" className="secondary" onClick={show.again}>
            {t('scoring.replay')}
          </button>
        ) : (
          <button type="button" className="secondary" data-skip-show onClick={show.skip}>
            {t('scoring.skip')}
          </button>
        )}
      </div>
    </section>
  );
}
