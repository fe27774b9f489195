import { indexDeck, regionScore, type State } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { Reconstructed, RegionTag } from './CardFace.tsx';
import { useRules } from './rules.tsx';
import { TableKey } from './TableKey.tsx';

/** Each region's progress (placed/size), bonus, whether it scored during play, who leads it and what it would score now; the key to the table. */
export function Regions({ view }: { view: State }) {
  const { t } = useTranslation();
  const rules = useRules();
  const words = useGameWords();
  const deck = indexDeck(rules.deck);
  return (
    <section className="panel regions" aria-label={t('board.regions')}>
      <h2>{t('board.regions')}</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">{t('board.region')}</th>
            <th scope="col">{t('board.placed')}</th>
            <th scope="col">{t('board.bonus')}</th>
            <th scope="col">{t('board.leads')}</th>
            <th scope="col">{t('seatPanels.now')}</th>
          </tr>
        </thead>
        <tbody>
          {rules.deck.regions.map((region) => {
            const placed = view.table.filter((p) => deck.card(p.cardId).region === region.id);
            const score = regionScore(rules, view, region.id);
            const scored = view.scoredRegions.includes(region.id);
            return (
              <tr key={region.id} data-region={region.id}>
                <td>
                  <RegionTag deck={rules.deck} region={region} />
                </td>
                <td>
                  {placed.length}/{region.size}
                  {scored && <span className="scored">{t('board.scored')}</span>}
                </td>
                <td>
                  {region.bonus}
                  <Reconstructed status={region.status.bonus} />
                </td>
                <td>{score.bonusTo ? words.side(score.bonusTo) : '–'}</td>
                <td data-now={score.delta}>
                  {score.delta === 0
                    ? '–'
                    : t('seatPanels.gain', {
                        side: words.side(score.delta > 0 ? 'US' : 'USSR'),
                        count: Math.abs(score.delta),
                      })}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <TableKey />
    </section>
  );
}
