import type { State } from '@iron-curtain/game';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { useRules } from './rules.tsx';
import { scoringBeats } from './scoringBeats.ts';
import { Track } from './Track.tsx';

/** Time between two beats of the show when it plays by itself. */
export const BEAT_MS = 1100;

/**
 * Final scoring as a show: one beat at a time, the reason for every point (which card, who
 * dominates it, the bonus), the marker moving after each step. Skippable; with reduced motion
 * it waits for "Next step" instead of advancing by itself.
 */
export function FinalScoringShow({ view }: { view: State }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const reduced = useReducedMotion();
  const rules = useRules();
  const beats = useMemo(() => scoringBeats(rules, view, words), [rules, view, words]);
  const [shown, setShown] = useState(1);
  const [closed, setClosed] = useState(false);
  const done = shown >= beats.length;

  // One timer per beat: each shown beat schedules the next.
  useEffect(() => {
    if (reduced || closed || shown >= beats.length) return;
    const timer = setTimeout(() => setShown((n) => n + 1), BEAT_MS);
    return () => clearTimeout(timer);
  }, [reduced, closed, shown, beats.length]);

  if (beats.length === 0 || closed) return null;
  const current = beats[Math.min(shown, beats.length) - 1];
  const steps = view.finalScoring ?? [];
  const step = current ? steps[current.step] : undefined;
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
      <Track marker={current?.marker ?? view.marker} label={t('scoring.title')} />
      <ol className="scoring-beats" aria-live="polite">
        {beats.slice(0, shown).map((beat, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the beats of one finished game never change
            key={i}
            data-beat={i}
            className={`scoring-beat${beat.side ? ` gain ${beat.side.toLowerCase()}` : ''}`}
          >
            {beat.side && <Flag side={beat.side} />} {beat.text}
          </li>
        ))}
      </ol>
      <div className="choices">
        {!done && (
          <button type="button" className="secondary" onClick={() => setShown((n) => n + 1)}>
            {t('scoring.next')}
          </button>
        )}
        {done ? (
          <button type="button" className="secondary" onClick={() => setShown(1)}>
            {t('scoring.replay')}
          </button>
        ) : (
          <button type="button" className="secondary" onClick={() => setClosed(true)}>
            {t('scoring.skip')}
          </button>
        )}
      </div>
    </section>
  );
}
