import { type FinalScoringStep, indexDeck, type Seat, type State } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useBringIntoView } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { FinalScoringShow } from './FinalScoringShow.tsx';
import { Flag } from './Flag.tsx';
import { useRules } from './rules.tsx';
import type { ScoringShow } from './scoringShow.ts';

function StepLine({ step }: { step: FinalScoringStep }) {
  const rules = useRules();
  const { t } = useTranslation();
  const words = useGameWords();
  const deck = indexDeck(rules.deck);
  const marker = t('end.markerNow', { where: words.marker(step.marker) });
  if (step.kind === 'aftermath') {
    const { cards, sums, delta } = step.score;
    const names = cards.map((id) => {
      const card = deck.card(id);
      return t('end.aftermathCard', {
        card: words.cardName(rules.deck, id),
        side: card.flag ? words.side(card.flag) : '–',
        command: card.command,
      });
    });
    return (
      <li data-step="aftermath">
        <strong>{t('end.aftermathTitle')}</strong>{' '}
        {names.length > 0
          ? t('end.aftermathCards', { cards: words.list(names) })
          : t('end.noCards')}{' '}
        {t('end.sums', { us: sums.US, ussr: sums.USSR })}
        {delta === 0
          ? t('end.noChange')
          : t('end.gains', {
              count: Math.abs(delta),
              side: words.theSide(delta > 0 ? 'US' : 'USSR'),
            })}
        {rules.variants.aftermathCap !== null &&
          t('end.cap', { count: rules.variants.aftermathCap })}
        . {marker}
      </li>
    );
  }
  const { region, cards, bonusTo, points } = step.score;
  const dominated = cards
    .filter((c) => c.dominatedBy)
    .map((c) =>
      t('end.cardSide', {
        card: words.cardName(rules.deck, c.cardId),
        side: words.side(c.dominatedBy as 'US' | 'USSR'),
      }),
    );
  return (
    <li data-step={`region:${region}`}>
      <strong>{words.regionName(rules.deck, region)}:</strong>{' '}
      {t('end.regionPoints', { us: points.US, ussr: points.USSR })}
      {dominated.length > 0
        ? t('end.dominatedList', { cards: dominated.join(t('end.listSep')) })
        : t('end.noneDominated')}
      {bonusTo
        ? t('end.bonusTo', { count: deck.region(region).bonus, side: words.theSide(bonusTo) })
        : t('end.noBonus')}
      . {marker}
    </li>
  );
}

/** Who won (a heading, with the flag) and why: the result as the side column and the stage tell it. */
export function ResultWords({
  view,
  names,
  focusTarget = false,
}: {
  view: State;
  names: Record<Seat, string>;
  /** The heading takes the keyboard when the result is told on the live table's stage. */
  focusTarget?: boolean;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const result = view.result;
  if (!result) return null;
  const winnerSeat: Seat = view.sides['0'] === result.winnerSide ? '0' : '1';
  const steps = view.finalScoring ?? [];
  return (
    <>
      <h2 tabIndex={focusTarget ? -1 : undefined} data-stage-focus={focusTarget || undefined}>
        <Flag side={result.winnerSide} size={32} />{' '}
        {t('end.wins', { side: words.TheSide(result.winnerSide), name: names[winnerSeat] })}
      </h2>
      <p className="end-reason" data-reason={result.reason}>
        {result.reason === 'track'
          ? t(steps.length > 0 ? 'end.byTrackFinal' : 'end.byTrack', {
              side: words.side(result.winnerSide),
            })
          : view.marker === 0
            ? t('end.tie')
            : t('end.afterFinal', { where: words.marker(view.marker) })}
      </p>
    </>
  );
}

/**
 * The final scoring step by step, then the winner and why, with the steps kept as a list. The
 * winner is told once the show has ended or been skipped.
 */
export function EndScreen({
  view,
  names,
  show,
}: {
  view: State;
  names: Record<Seat, string>;
  show: ScoringShow;
}) {
  const { t } = useTranslation();
  // Told the winner, the result comes up again: a skip may have left its box scrolled down.
  const here = useBringIntoView<HTMLElement>(show.revealed);
  const result = view.result;
  if (!result) return null;
  const steps = view.finalScoring ?? [];
  if (!show.revealed) {
    return (
      <section
        ref={here}
        className="panel end-screen"
        aria-label={t('match.result')}
        data-winner={result.winnerSide}
        data-revealed="false"
      >
        <h2>{t('finalReveal.heading')}</h2>
        <FinalScoringShow view={view} show={show} />
      </section>
    );
  }
  return (
    <section
      ref={here}
      className="panel end-screen"
      aria-label={t('match.result')}
      data-winner={result.winnerSide}
      data-revealed="true"
    >
      <ResultWords view={view} names={names} />
      {steps.length > 0 && (
        <>
          <FinalScoringShow view={view} show={show} />
          <h3>{t('end.finalScoring')}</h3>
          <ol className="final-steps">
            {steps.map((step) => (
              <StepLine
                key={step.kind === 'aftermath' ? 'aftermath' : step.score.region}
                step={step}
              />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
