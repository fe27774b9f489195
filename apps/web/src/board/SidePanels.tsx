import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../app/motion.ts';

/** One panel beside the table (supplies, regions, log, chat...). */
export interface SidePanel {
  id: string;
  /** The tab's name on a phone. */
  label: string;
  content: ReactNode;
}

/** Phones: the table, the hand and the decision take the screen; the panels are a tap away. */
export const usePhone = (): boolean => useMediaQuery('(max-width: 600px)');

/**
 * The panels beside the table: on a desktop a column, all shown; on a phone a row of tabs, the
 * chosen panel opening as a sheet over the bottom of the screen.
 */
export function SidePanels({ panels }: { panels: SidePanel[] }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const [open, setOpen] = useState<string | null>(null);
  const base = useId();
  if (!phone) {
    return (
      <aside className="match-side">
        {panels.map((panel) => (
          <div key={panel.id} className="side-panel" data-panel={panel.id}>
            {panel.content}
          </div>
        ))}
      </aside>
    );
  }
  const shown = panels.find((p) => p.id === open);
  return (
    <aside className="match-side phone">
      <div className="panel-tabs" role="tablist" aria-label={t('table.panels')}>
        {panels.map((panel) => (
          <button
            key={panel.id}
            type="button"
            role="tab"
            id={`${base}-${panel.id}`}
            aria-selected={open === panel.id}
            aria-controls={open === panel.id ? `${base}-sheet` : undefined}
            data-tab={panel.id}
            onClick={() => setOpen((current) => (current === panel.id ? null : panel.id))}
          >
            {panel.label}
          </button>
        ))}
      </div>
      {shown && (
        <div
          className="panel-sheet"
          role="tabpanel"
          id={`${base}-sheet`}
          aria-labelledby={`${base}-${shown.id}`}
          data-panel={shown.id}
        >
          <button type="button" className="sheet-close" onClick={() => setOpen(null)}>
            {t('table.close')}
          </button>
          {shown.content}
        </div>
      )}
    </aside>
  );
}
