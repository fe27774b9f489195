import './tutorial.css';
import { chooseMove } from '@iron-curtain/bots';
import { type Move, type MoveName, type Seat, type SetupData, viewFor } from '@iron-curtain/game';
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { MatchView } from '../board/MatchView.tsx';
import { LocalMatch } from '../local/localGame.ts';
import { CoachPointer } from './CoachPointer.tsx';
import { POINT_BY_DECISION, type Pointing, TUTORIAL_SCRIPT } from './tutorialScript.ts';

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

const sameMove = (a: Move, b: Move) =>
  a.move === b.move && JSON.stringify(a.args) === JSON.stringify(b.args);

/**
 * One scripted game in the browser: the engine decides, the computer answers. The opening is a
 * script of both sides' moves, each of the learner's led by a hint beside the table that points
 * at its card, cell or button; a move off the script hands over to the easy bot and hints by
 * decision, which point too.
 */
export function TutorialPage() {
  const { t } = useTranslation();
  const [match, setMatch] = useState(newTutorial);
  // How far the game has followed the script, or null once it left it.
  const [scripted, setScripted] = useState<number | null>(0);
  const { state, log, version } = useSyncExternalStore(match.subscribe, match.getSnapshot);
  const [recentFrom, setRecentFrom] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the engine changes the state in place; version marks each change
  const view = useMemo(() => viewFor(state, LEARNER), [state, version]);
  const decision = state.decision;
  const botToMove = !state.result && decision?.seat === BOT;
  const next = scripted === null ? undefined : TUTORIAL_SCRIPT[scripted];

  /** Plays a move and follows the script's position: the same move goes on, another leaves it. */
  const play = (seat: Seat, move: Move): boolean => {
    if (!match.move(seat, move.move, move.args)) return false;
    setScripted((at) => {
      const expected = at === null ? undefined : TUTORIAL_SCRIPT[at];
      return at !== null && expected?.seat === seat && sameMove(expected, move) ? at + 1 : null;
    });
    return true;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new state (version) may be the bot's turn again
  useEffect(() => {
    if (!botToMove) return;
    const timer = setTimeout(() => {
      const own = next?.seat === BOT ? next : null;
      if (own && play(BOT, own)) return;
      play(BOT, chooseMove(match.rules, viewFor(state, BOT), BOT, 'easy'));
    }, BOT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [botToMove, match, state, version]);

  const onMove = (move: MoveName, args: unknown[]) => {
    const before = match.getSnapshot().log.length;
    if (play(LEARNER, { move, args })) setRecentFrom(before);
  };

  const coach = next?.seat === LEARNER ? next.coach : undefined;
  const finishedScript = scripted === TUTORIAL_SCRIPT.length;
  const hint = state.result
    ? t('tutorial.hint_over')
    : botToMove
      ? t('tutorial.hint_wait')
      : coach
        ? t(`coach.${coach.hint}`)
        : decision
          ? t(`tutorial.hint_${decision.kind}`, { round: state.round })
          : '';
  const points: Pointing[] = useMemo(
    () =>
      state.result || botToMove || !decision
        ? []
        : (coach?.point ?? POINT_BY_DECISION[decision.kind]),
    [state.result, botToMove, decision, coach],
  );

  return (
    <main className="page match-page tutorial-page">
      <header className="title">
        <h1>{t('tutorial.title')}</h1>
        <p>{t('tutorial.intro')}</p>
      </header>
      <div className="tutorial-table">
        <aside
          className="panel tutorial-hint"
          aria-label={t('tutorial.title')}
          aria-live="polite"
          data-hint={state.result ? 'over' : botToMove ? 'wait' : (decision?.kind ?? 'over')}
          data-coach={coach?.hint ?? 'decision'}
        >
          {finishedScript && !state.result && <p>{t('coach.onYourOwn')}</p>}
          <p className="coach-text">{hint}</p>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setRecentFrom(0);
              setScripted(0);
              setMatch(newTutorial());
            }}
          >
            {t('tutorial.restart')}
          </button>
        </aside>
        <div className="tutorial-play">
          <MatchView
            rules={match.rules}
            view={view}
            seat={LEARNER}
            names={
              { [LEARNER]: t('tutorial.you'), [BOT]: t('tutorial.computer') } as Record<
                Seat,
                string
              >
            }
            log={log}
            recent={log.slice(recentFrom)}
            pending={false}
            connected
            onMove={onMove}
          />
        </div>
      </div>
      <CoachPointer points={points} />
    </main>
  );
}
