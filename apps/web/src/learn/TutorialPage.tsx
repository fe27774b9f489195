import { chooseMove } from '@iron-curtain/bots';
import { type Move, type Seat, type SetupData, viewFor } from '@iron-curtain/game';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { MatchView } from '../board/MatchView.tsx';
import { LocalMatch } from '../local/localGame.ts';

/** The learner plays the US (seat 0) against the easy bot, always from the same deal. */
export const TUTORIAL_SETUP: SetupData = {
  sides: { '0': 'US', '1': 'USSR' },
  deal: {
    '0': ['west-germany', 'france', 'japan', 'israel', 'poland'],
    '1': ['east-germany', 'hungary', 'vietnam', 'iran', 'cuba'],
    reserve: [
      'pakistan',
      'south-africa',
      'zaire',
      'algeria',
      'nigeria',
      'panama',
      'chile',
      'brazil',
    ],
  },
};

const LEARNER: Seat = '0';
const BOT: Seat = '1';
/** A pause before the bot moves, so the learner sees one move at a time. */
export const BOT_DELAY_MS = 500;

const newTutorial = () => new LocalMatch(TUTORIAL_SETUP, (cards) => cards);

/** One scripted game in the browser: the engine decides, the easy bot answers, hints explain. */
export function TutorialPage() {
  const { t } = useTranslation();
  const [match, setMatch] = useState(newTutorial);
  const { state, log, version } = useSyncExternalStore(match.subscribe, match.getSnapshot);
  const [recentFrom, setRecentFrom] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the engine changes the state in place; version marks each change
  const view = useMemo(() => viewFor(state, LEARNER), [state, version]);
  const decision = state.decision;
  const botToMove = !state.result && decision?.seat === BOT;

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new state (version) may be the bot's turn again
  useEffect(() => {
    if (!botToMove) return;
    const timer = setTimeout(() => {
      const { move, args } = chooseMove(match.rules, viewFor(state, BOT), BOT, 'easy');
      match.move(BOT, move, args);
    }, BOT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [botToMove, match, state, version]);

  // A batch (the cubes of a confirmed draft) is what the learner just did, as one.
  const onMoves = (moves: Move[]) => {
    const before = match.getSnapshot().log.length;
    if (moves.every(({ move, args }) => match.move(LEARNER, move, args))) setRecentFrom(before);
  };

  const hint = state.result
    ? t('tutorial.hint_over')
    : botToMove
      ? t('tutorial.hint_wait')
      : decision
        ? t(`tutorial.hint_${decision.kind}`, { round: state.round })
        : '';

  return (
    <main className="page tutorial-page">
      <header className="title">
        <h1>{t('tutorial.title')}</h1>
        <p>{t('tutorial.intro')}</p>
      </header>
      <section
        className="panel tutorial-hint"
        aria-label={t('tutorial.title')}
        data-hint={state.result ? 'over' : botToMove ? 'wait' : (decision?.kind ?? 'over')}
      >
        <p>{hint}</p>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setRecentFrom(0);
            setMatch(newTutorial());
          }}
        >
          {t('tutorial.restart')}
        </button>
      </section>
      <MatchView
        rules={match.rules}
        view={view}
        seat={LEARNER}
        names={
          { [LEARNER]: t('tutorial.you'), [BOT]: t('tutorial.computer') } as Record<Seat, string>
        }
        log={log}
        recent={log.slice(recentFrom)}
        pending={false}
        connected
        onMove={(move, args) => onMoves([{ move, args }])}
        onMoves={onMoves}
      />
    </main>
  );
}
