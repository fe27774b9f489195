import { type FinalScoringStep, indexDeck, type Seat, type State } from '@iron-curtain/game';
import { Flag } from './Flag.tsx';
import { markerWords } from './Track.tsx';

function StepLine({ view, step }: { view: State; step: FinalScoringStep }) {
  const deck = indexDeck(view.deck);
  if (step.kind === 'aftermath') {
    const { cards, sums, delta } = step.score;
    const names = cards.map((id) => {
      const card = deck.card(id);
      return `${card.name} (${card.flag}, ${card.command})`;
    });
    return (
      <li data-step="aftermath">
        <strong>Aftermath:</strong> {names.length > 0 ? names.join(' and ') : 'no cards'} revealed.
        US {sums.US}, USSR {sums.USSR}
        {delta === 0 ? ': no change' : `: ${Math.abs(delta)} to the ${delta > 0 ? 'US' : 'USSR'}`}
        {view.variants.aftermathCap !== null && ` (at most ${view.variants.aftermathCap})`}. Marker{' '}
        {markerWords(step.marker)}.
      </li>
    );
  }
  const { region, cards, bonusTo, points } = step.score;
  const info = deck.region(region);
  const dominated = cards
    .filter((c) => c.dominatedBy)
    .map((c) => `${deck.card(c.cardId).name} ${c.dominatedBy}`);
  return (
    <li data-step={`region:${region}`}>
      <strong>{info.name}:</strong> US {points.US}, USSR {points.USSR}
      {dominated.length > 0 ? ` (dominated: ${dominated.join(', ')}` : ' (no card dominated'}
      {bonusTo ? `; bonus ${info.bonus} to the ${bonusTo})` : '; no bonus)'}. Marker{' '}
      {markerWords(step.marker)}.
    </li>
  );
}

/** The winner, why, and the final scoring step by step. */
export function EndScreen({ view, names }: { view: State; names: Record<Seat, string> }) {
  const result = view.result;
  if (!result) return null;
  const winnerSeat: Seat = view.sides['0'] === result.winnerSide ? '0' : '1';
  const steps = view.finalScoring ?? [];
  return (
    <section className="panel end-screen" aria-label="Result" data-winner={result.winnerSide}>
      <h2>
        <Flag side={result.winnerSide} size={32} /> The {result.winnerSide} ({names[winnerSeat]})
        wins
      </h2>
      <p className="end-reason" data-reason={result.reason}>
        {result.reason === 'track'
          ? `The marker reached the ${result.winnerSide} flag on the ideology track${steps.length > 0 ? ' during final scoring' : ''}.`
          : view.marker === 0
            ? 'After final scoring the marker is at the centre: a tie goes to the US.'
            : `After final scoring the marker is ${markerWords(view.marker)}.`}
      </p>
      {steps.length > 0 && (
        <>
          <h3>Final scoring</h3>
          <ol className="final-steps">
            {steps.map((step) => (
              <StepLine
                key={step.kind === 'aftermath' ? 'aftermath' : step.score.region}
                view={view}
                step={step}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
