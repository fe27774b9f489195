import { TRACK_END } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';

/** The ideology track: the USSR flag at -8 (left), the US flag at +8 (right). */
export function Track({ marker, label }: { marker: number; label?: string }) {
  const { t } = useTranslation();
  const words = useGameWords();
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
            className={`track-step${step === marker ? ' marker' : ''}${step < 0 ? ' ussr' : step > 0 ? ' us' : ''}`}
            aria-current={step === marker ? 'step' : undefined}
            title={`${step > 0 ? '+' : ''}${step}`}
          >
            {step === marker ? '●' : Math.abs(step)}
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
