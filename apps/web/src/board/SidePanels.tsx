import { type ReactNode, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
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
          <DesktopPanel key={panel.id} panel={panel} />
        ))}
      </aside>
    );
  }
  const shown = panels.find((p) => p.id === open);
  return (
    <aside className="match-side phone">
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
    </aside>
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

/**
 * A panel of the desktop's column. One that receives things and is scrolled out of view gets
 * a button at the bottom of the window with the count, which brings it into view.
 */
function DesktopPanel({ panel }: { panel: SidePanel }) {
  const box = useRef<HTMLDivElement>(null);
  const [inView, setInView] = useState(true);
  const received = panel.received !== undefined;
  useEffect(() => {
    const element = box.current;
    if (!received || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => setInView(entry ? entry.intersectionRatio >= 0.5 : true),
      { threshold: 0.5 },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [received]);
  const unread = useUnread(panel.received, inView);
  const label = useUnreadLabel(panel.label, unread);
  return (
    <div ref={box} className="side-panel" data-panel={panel.id}>
      {panel.content}
      {label && (
        <button
          type="button"
          className="unread-jump"
          data-unread={unread}
          onClick={() => box.current?.scrollIntoView({ block: 'center' })}
        >
          {label}
        </button>
      )}
    </div>
  );
}
