import type { LogEntry, Seat, State } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { useRules } from './rules.tsx';

/**
 * What a screen reader says after each state: what just happened (the opponent's moves, scorings)
 * and whose turn it is now. Visually hidden; the same words are on screen elsewhere.
 */
export function Announcer({
  view,
  seat,
  recent,
  revealed = true,
}: {
  view: State;
  seat: Seat | null;
  recent: LogEntry[];
  /** The result may be said: false while the final scoring plays. */
  revealed?: boolean;
}) {
  const { t } = useTranslation();
  const rules = useRules();
  const words = useGameWords();
  const happened = recent.map((entry) => words.logLine(entry, rules.deck, view.table));
  const d = view.decision;
  let turn = '';
  if (view.result && !revealed) turn = '';
  else if (view.result)
    turn = t('announce.gameOver', { side: words.TheSide(view.result.winnerSide) });
  else if (d && d.seat === seat)
    turn = t('announce.yourTurn', { what: words.decision(rules.deck, view, d) });
  else if (d)
    turn = t('announce.theirTurn', {
      side: words.TheSide(view.sides[d.seat]),
      what: words.decision(rules.deck, view, d),
    });
  return (
    <div className="sr-only" aria-live="polite" aria-atomic="true" data-announce>
      {[...happened, turn].filter(Boolean).join(' ')}
    </div>
  );
}
