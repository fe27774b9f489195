import { type ReactNode, useEffect, useId, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { useMediaQuery } from '../app/motion.ts';

/** What a panel has received so far (the chat: lines from others), followed as it grows. */
export interface Received {
  subscribe(listener: () => void): () => void;
  /** null until the panel has its first batch (the history, which is not news). */
  count(): number | null;
}

/** One panel beside the table (supplies, regions, log, chat...). */
export interface SidePanel {
  id: string;
  /** The tab's name on a phone. */
  label: string;
  content: ReactNode;
  /** The tab counts what arrives while the panel is not shown. */
  received?: Received;
}

/** Phones: the table, the hand and the decision take the screen; the panels are a tap away. */
export const usePhone = (): boolean => useMediaQuery('(max-width: 600px)');

const nothing: Received = { subscribe: () => () => undefined, count: () => null };

/** How many things arrived while the panel was not shown; back to 0 once it is. */
function useUnread(received: Received | undefined, shown: boolean): number {
  const source = received ?? nothing;
  const count = useSyncExternalStore(source.subscribe, source.count);
  const [seen, setSeen] = useState<number | null>(null);
  useEffect(() => {
    if (count !== null && (seen === null || shown)) setSeen(count);
  }, [count, seen, shown]);
  return count === null || seen === null || shown ? 0 : Math.max(0, count - seen);
}

/** The label with its unread count, for the tab's name ("Chat, 2 unread"). */
function useUnreadLabel(label: string, unread: number): string | undefined {
  const { t } = useTranslation();
  return unread > 0 ? t('panelBadges.unread', { label, count: unread }) : undefined;
}

/**
 * The panels beside the table, as tabs: on a desktop a box of the side column, the chosen panel
 * scrolling inside it; on a phone a row of tabs at the bottom of the screen, the chosen panel
 * opening as a sheet over the table. Every panel stays mounted, so a hidden chat keeps counting.
 */
export function SidePanels({ panels, initial }: { panels: SidePanel[]; initial?: string }) {
  const { t } = useTranslation();
  const phone = usePhone();
  const [chosen, setChosen] = useState<string>(initial ?? panels[0]?.id ?? '');
  const [open, setOpen] = useState<string | null>(null);
  const base = useId();
  if (!phone) {
    return (
      <div className="side-tabs">
        <div className="panel-tabs" role="tablist" aria-label={t('table.panels')}>
          {panels.map((panel) => (
            <PanelTab
              key={panel.id}
              panel={panel}
              id={`${base}-${panel.id}`}
              sheet={`${base}-panel-${panel.id}`}
              open={chosen === panel.id}
              onToggle={() => setChosen(panel.id)}
            />
          ))}
        </div>
        {panels.map((panel) => (
          <div
            key={panel.id}
            className="side-panel"
            role="tabpanel"
            // A panel scrolls inside its box: reachable by keyboard, as the tabs pattern asks.
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling tab panel
            tabIndex={0}
            id={`${base}-panel-${panel.id}`}
            aria-labelledby={`${base}-${panel.id}`}
            data-panel={panel.id}
            hidden={chosen !== panel.id}
          >
            {panel.content}
          </div>
        ))}
      </div>
    );
  }
  const shown = panels.find((p) => p.id === open);
  return (
    <div className="side-tabs phone">
      <div className="panel-tabs" role="tablist" aria-label={t('table.panels')}>
        {panels.map((panel) => (
          <PanelTab
            key={panel.id}
            panel={panel}
            id={`${base}-${panel.id}`}
            sheet={`${base}-sheet`}
            open={open === panel.id}
            onToggle={() => setOpen((current) => (current === panel.id ? null : panel.id))}
          />
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
    </div>
  );
}

function PanelTab({
  panel,
  id,
  sheet,
  open,
  onToggle,
}: {
  panel: SidePanel;
  id: string;
  sheet: string;
  open: boolean;
  onToggle: () => void;
}) {
  const unread = useUnread(panel.received, open);
  return (
    <button
      type="button"
      role="tab"
      id={id}
      aria-selected={open}
      aria-controls={open ? sheet : undefined}
      aria-label={useUnreadLabel(panel.label, unread)}
      data-tab={panel.id}
      onClick={onToggle}
    >
      {panel.label}
      {unread > 0 && (
        <span className="unread-badge" data-unread={unread}>
          {unread}
        </span>
      )}
    </button>
  );
}
