import { TRACK_END } from '@iron-curtain/game';
import { Flag } from './Flag.tsx';

export const markerWords = (marker: number) =>
  marker === 0 ? 'at the centre' : `${Math.abs(marker)} towards the ${marker > 0 ? 'US' : 'USSR'}`;

/** The ideology track: the USSR flag at -8 (left), the US flag at +8 (right). */
export function Track({ marker }: { marker: number }) {
  const steps = Array.from({ length: 2 * TRACK_END + 1 }, (_, i) => i - TRACK_END);
  return (
    <section className="track" aria-label="Ideology track">
      <span className="track-end">
        <Flag side="USSR" size={24} /> USSR
      </span>
      <ol className="track-steps">
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
        US <Flag side="US" size={24} />
      </span>
      <p className="track-words">Marker {markerWords(marker)}</p>
    </section>
  );
}
