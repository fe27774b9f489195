import { useTranslation } from 'react-i18next';
import { Flag } from './Flag.tsx';

/**
 * The key to the table, always in sight: what a tinted card (dominated) and a card with a thick
 * border and a shield (controlled) mean, and what a cube costs on a controlled card.
 */
export function TableKey() {
  const { t } = useTranslation();
  return (
    <ul className="table-key" aria-label={t('seatPanels.keyLabel')}>
      <li>
        <span className="key-swatch dominate" aria-hidden="true" />
        {t('seatPanels.keyDominate')}
      </li>
      <li>
        <span className="key-swatch control" aria-hidden="true">
          <span className="control-shield">
            <Flag side="US" size={12} />
          </span>
        </span>
        {t('seatPanels.keyControl')}
      </li>
    </ul>
  );
}
