import { TRACK_END } from '@iron-curtain/game';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { onSkip } from './tableMotion.ts';

/** Time the marker takes for one step of the track. */
const MARKER_STEP_MS = 220;

/** The marker as drawn: it walks to a new position one step at a time (at once under reduced motion). */
function useWalkingMarker(marker: number): number {
  const reduced = useReducedMotion();
  const [shown, setShown] = useState(marker);
  useEffect(() => {
    if (reduced || shown === marker) {
      setShown(marker);
      return;
    }
    const timer = setTimeout(() => setShown((s) => s + Math.sign(marker - s)), MARKER_STEP_MS);
    const stop = onSkip(() => setShown(marker));
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [marker, shown, reduced]);
  return shown;
}

/** The ideology track: the USSR flag at -8 (left), the US flag at +8 (right). */
export function Track({ marker, label }: { marker: number; label?: string }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const shown = useWalkingMarker(marker);
  const steps = Array.from({ length: 2 * TRACK_END + 1 }, (_, i) => i - TRACK_END);
  return (
    <section className="track" aria-label={label ?? t('board.track')}>
      <span className="track-end">
        <Flag side="USSR" size={24} /> {words.side('USSR')}
      </span>
      <ol className="track-steps" aria-hidden="true">
        {steps.map((step) => (
          <li
            key={step}
            className={`track-step${step === shown ? ' marker' : ''}${step < 0 ? ' ussr' : step > 0 ? ' us' : ''}`}
            aria-current={step === shown ? 'step' : undefined}
            title={`${step > 0 ? '+' : ''}${step}`}
          >
            {step === shown ? '●' : Math.abs(step)}
          </li>
        ))}
      </ol>
      <span className="track-end">
        {words.side('US')} <Flag side="US" size={24} />
      </span>
      <p className="track-words">{t('board.marker', { where: words.marker(marker) })}</p>
    </section>
  );
}
