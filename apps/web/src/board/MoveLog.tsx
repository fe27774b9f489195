import { type Deck, describeLogEntry, type LogEntry } from '@iron-curtain/game';
import { useEffect, useRef } from 'react';

/** The public log in words, newest at the bottom. */
export function MoveLog({ log, deck }: { log: LogEntry[]; deck: Deck }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el && log.length > 0) el.scrollTop = el.scrollHeight;
  }, [log.length]);
  return (
    <section className="panel move-log" aria-label="Move log">
      <h2>Move log</h2>
      <ol ref={list}>
        {log.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows, an entry keeps its index
          <li key={i}>{describeLogEntry(entry, deck)}</li>
        ))}
        {log.length === 0 && <li className="empty">Nothing has happened yet.</li>}
      </ol>
    </section>
  );
}

/** What the last move did (a scoring, a gain, the cubes placed), in words, above the table. */
export function RecentEntries({ entries, deck }: { entries: LogEntry[]; deck: Deck }) {
  if (entries.length === 0) return null;
  return (
    <section className="recent" aria-label="Just happened" aria-live="polite">
      <ul>
        {entries.map((entry, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: one move's entries, replaced as a whole
            key={i}
            className={
              entry.type === 'regionScored' || entry.type === 'aftermathRevealed' ? 'scoring' : ''
            }
          >
            {describeLogEntry(entry, deck)}
          </li>
        ))}
      </ul>
    </section>
  );
}
