import { indexDeck, regionScore, type State } from '@iron-curtain/game';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { regionStyle } from './regionStyle.ts';
import { useRules } from './rules.tsx';

/**
 * One chip per region above the table: its symbol and colour, how many of its cards lie on the
 * table, and what it would score if it were scored now ("Europe now: US +1"), as the engine
 * scores it. The region being scored lights up.
 */
export function RegionStrip({ view, scoring = null }: { view: State; scoring?: string | null }) {
  const { t } = useTranslation();
  const rules = useRules();
  const words = useGameWords();
  const deck = indexDeck(rules.deck);
  return (
    <ul className="region-strip" aria-label={t('seatPanels.regionsNow')}>
      {rules.deck.regions.map((region) => {
        const placed = view.table.filter((p) => deck.card(p.cardId).region === region.id).length;
        const score = regionScore(rules, view, region.id);
        const scored = view.scoredRegions.includes(region.id);
        const name = words.regionName(rules.deck, region.id);
        const style = regionStyle(region);
        const towards = score.delta > 0 ? 'US' : score.delta < 0 ? 'USSR' : null;
        const now = towards
          ? t('seatPanels.regionNow', {
              region: name,
              side: words.side(towards),
              count: Math.abs(score.delta),
            })
          : t('seatPanels.regionEven', { region: name });
        return (
          <li
            key={region.id}
            className={`region-chip${scoring === region.id ? ' scoring' : ''}${scored ? ' scored' : ''}`}
            style={{ '--region': style.colour } as CSSProperties}
            data-region-now={region.id}
            data-leader={towards ?? 'none'}
          >
            <span className="sr-only">{scored ? `${name}: ${t('seatPanels.scored')}` : now}</span>
            <span className="region-chip-name" aria-hidden="true">
              {style.symbol} {name}
            </span>
            <span className="region-chip-placed">
              {t('seatPanels.placed', { placed, size: region.size })}
            </span>
            <span
              className={`region-chip-now${towards ? ` ${towards.toLowerCase()}` : ''}`}
              aria-hidden="true"
            >
              {scored ? (
                t('seatPanels.scored')
              ) : towards ? (
                <>
                  <Flag side={towards} size={16} />+{Math.abs(score.delta)}
                </>
              ) : (
                '±0'
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
