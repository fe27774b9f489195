import { type CardId, indexDeck, type RulesContext, type State } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { CardFace } from '../board/CardFace.tsx';
import { useGameWords } from '../i18n/gameWords.ts';
import { commandExample, scoringExample } from './ruleExamples.ts';

/** A small table drawn from an engine position; `marked` cards are outlined with their note. */
function ExampleTable({
  rules,
  view,
  marked,
}: {
  rules: RulesContext;
  view: State;
  marked: Map<CardId, string>;
}) {
  const deck = indexDeck(rules.deck);
  const minX = Math.min(...view.table.map((p) => p.x));
  const minY = Math.min(...view.table.map((p) => p.y));
  const columns = Math.max(...view.table.map((p) => p.x)) - minX + 1;
  return (
    <div className="example-table" style={{ gridTemplateColumns: `repeat(${columns}, 9.5rem)` }}>
      {view.table.map((placed) => {
        const card = deck.card(placed.cardId);
        const note = marked.get(placed.cardId);
        return (
          <div
            key={placed.cardId}
            className={`example-card${note ? ' target' : ''}`}
            data-card={placed.cardId}
            data-reachable={note !== undefined}
            style={{ gridColumn: placed.x - minX + 1, gridRow: placed.y - minY + 1 }}
          >
            <CardFace
              deck={rules.deck}
              card={card}
              region={deck.region(card.region)}
              cubes={placed.cubes}
              note={note}
            />
          </div>
        );
      })}
    </div>
  );
}

/** Command reach, as the engine computes it for a fixed position. */
export function CommandReachExample() {
  const { t } = useTranslation();
  const words = useGameWords();
  const { rules, position, played, reach } = commandExample();
  const name = (id: CardId) => words.cardName(rules.deck, id);
  const marked = new Map(
    reach.map(({ cardId, cost }) => [
      cardId,
      t(cost === 2 ? 'board.placeCost2' : 'board.placeCost1'),
    ]),
  );
  const costly = reach.find((r) => r.cost === 2);
  return (
    <figure className="rule-example" data-example="command">
      <ExampleTable rules={rules} view={position} marked={marked} />
      <figcaption>
        <strong>{t('rules.commandExampleTitle')}.</strong>{' '}
        {t('rules.commandExample', {
          card: name(played),
          cards: words.list(reach.map((r) => name(r.cardId))),
          costly: costly ? name(costly.cardId) : '',
        })}
      </figcaption>
    </figure>
  );
}

/** A region's scoring, as the engine's scorer computes it for a fixed position. */
export function RegionScoringExample() {
  const { t } = useTranslation();
  const words = useGameWords();
  const { rules, position, score } = scoringExample();
  const deck = indexDeck(rules.deck);
  const region = words.regionName(rules.deck, score.region);
  const bonus = deck.region(score.region).bonus;
  return (
    <figure className="rule-example" data-example="scoring">
      <ExampleTable rules={rules} view={position} marked={new Map()} />
      <figcaption>
        <strong>{t('rules.scoringExampleTitle')}.</strong>{' '}
        {t('rules.scoringExample', { region, bonus })}
        <ul>
          {score.cards.map((c) => (
            <li key={c.cardId}>
              {c.dominatedBy
                ? t('scoring.cardPoint', {
                    card: words.cardName(rules.deck, c.cardId),
                    side: words.TheSide(c.dominatedBy),
                  })
                : t('scoring.cardTie', { card: words.cardName(rules.deck, c.cardId) })}
            </li>
          ))}
          <li>
            {score.bonusTo
              ? t('scoring.regionBonus', {
                  side: words.TheSide(score.bonusTo),
                  region,
                  count: bonus,
                })
              : t('scoring.regionNoBonus', { region })}
          </li>
          <li>{t('scoring.regionTotal', { us: score.points.US, ussr: score.points.USSR })}</li>
          <li>
            {score.delta === 0
              ? t('rules.markerStays')
              : t('rules.markerMoves', {
                  steps: Math.abs(score.delta),
                  side: words.theSide(score.delta > 0 ? 'US' : 'USSR'),
                })}
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
