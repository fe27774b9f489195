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
