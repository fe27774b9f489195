import type { Deck, LogEntry, PublicView } from '@iron-curtain/game';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';

/** The public log in words, newest at the bottom. */
export function MoveLog({
  log,
  deck,
  table,
}: {
  log: LogEntry[];
  deck: Deck;
  table: PublicView['table'];
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el && log.length > 0) el.scrollTop = el.scrollHeight;
  }, [log.length]);
  return (
    <section className="panel move-log" aria-label={t('board.moveLog')}>
      <h2>{t('board.moveLog')}</h2>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling list must be reachable by keyboard */}
      <ol ref={list} tabIndex={0} aria-label={t('board.moveLog')}>
        {log.map((entry, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the log only grows, an entry keeps its index
          <li key={i}>{words.logLine(entry, deck, table)}</li>
        ))}
        {log.length === 0 && <li className="empty">{t('board.nothingYet')}</li>}
      </ol>
    </section>
  );
}

/** What the last move did (a scoring, a gain, the cubes placed), in words, above the table. */
export function RecentEntries({
  entries,
  deck,
  table,
}: {
  entries: LogEntry[];
  deck: Deck;
  table: PublicView['table'];
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  if (entries.length === 0) return null;
  return (
    <section className="recent" aria-label={t('board.justHappened')}>
      <ul>
        {entries.map((entry, i) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: one move's entries, replaced as a whole
            key={i}
            className={
              entry.type === 'regionScored' || entry.type === 'aftermathRevealed' ? 'scoring' : ''
            }
          >
            {words.logLine(entry, deck, table)}
          </li>
        ))}
      </ul>
    </section>
  );
}
