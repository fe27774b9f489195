import {
  type FinalScoringStep,
  indexDeck,
  type RulesContext,
  type Side,
  type State,
} from '@iron-curtain/game';
import type { GameWords } from '../i18n/gameWords.ts';

/** One line of the final scoring show: the reason for one point or one change of the marker. */
export interface Beat {
  /** Which step of state.finalScoring it belongs to. */
  step: number;
  text: string;
  /** Who gains here, for the colour-and-flag mark (null: nobody). */
  side: Side | null;
  /** The marker once this beat is shown (it moves on a step's last beat). */
  marker: number;
}

/** Splits final scoring into beats: each card dominated, each bonus, the aftermath's sums and gain. */
export function scoringBeats(rules: RulesContext, view: State, words: GameWords): Beat[] {
  const t = words.t;
  const deck = indexDeck(rules.deck);
  const steps: FinalScoringStep[] = view.finalScoring ?? [];
  const beats: Beat[] = [];
  let marker = steps.length > 0 ? markerBefore(steps[0] as FinalScoringStep) : view.marker;
  steps.forEach((step, index) => {
    const add = (text: string, side: Side | null) =>
      beats.push({ step: index, text, side, marker });
    if (step.kind === 'aftermath') {
      const { cards, sums, delta } = step.score;
      add(
        t('scoring.aftermathStep', {
          cards: words.list(cards.map((id) => words.cardName(rules.deck, id))) || '–',
        }),
        null,
      );
      add(t('scoring.aftermathSums', { us: sums.US, ussr: sums.USSR }), null);
      const gainer: Side | null = delta > 0 ? 'US' : delta < 0 ? 'USSR' : null;
      const capped = Math.abs(sums.US - sums.USSR) > Math.abs(delta);
      marker = step.marker;
      add(
        gainer === null
          ? t('scoring.aftermathNone')
          : t(capped ? 'scoring.aftermathCapped' : 'scoring.aftermathGain', {
              side: words.TheSide(gainer),
              count: Math.abs(delta),
              cap: rules.variants.aftermathCap ?? 0,
            }),
        gainer,
      );
      return;
    }
    const { region, cards, bonusTo, points } = step.score;
    const regionName = words.regionName(rules.deck, region);
    add(t('scoring.regionStep', { region: regionName }), null);
    for (const c of cards) {
      const card = words.cardName(rules.deck, c.cardId);
      add(
        c.dominatedBy
          ? t('scoring.cardPoint', { card, side: words.TheSide(c.dominatedBy) })
          : t('scoring.cardTie', { card }),
        c.dominatedBy,
      );
    }
    add(
      bonusTo
        ? t('scoring.regionBonus', {
            side: words.TheSide(bonusTo),
            region: regionName,
            count: deck.region(region).bonus,
          })
        : t('scoring.regionNoBonus', { region: regionName }),
      bonusTo,
    );
    marker = step.marker;
    add(
      `${t('scoring.regionTotal', { us: points.US, ussr: points.USSR })} ${t('scoring.markerAfter', { where: words.marker(marker) })}`,
      null,
    );
  });
  return beats;
}

/** Where the marker stood before final scoring began. */
function markerBefore(step: FinalScoringStep): number {
  return step.marker - step.score.delta;
}
