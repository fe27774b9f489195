import './layout.css';
import {
  type CardId,
  type Cell,
  isReconstructed,
  type LogEntry,
  type MoveName,
  PLAYS_PER_ROUND,
  type RulesContext,
  type Seat,
  type State,
} from '@iron-curtain/game';
import {
  type ReactNode,
  type RefObject,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { Announcer } from './Announcer.tsx';
import { Board, type TableMarks } from './Board.tsx';
import { choicesFor, noChoices } from './choices.ts';
import { useCubeDraft } from './cubeDraft.ts';
import { DecisionPrompt } from './DecisionPrompt.tsx';
import { EndScreen } from './EndScreen.tsx';
import { type Ending, EndStage } from './EndStage.tsx';
import { OwnHand } from './Hands.tsx';
import { MoveLog, RecentEntries } from './MoveLog.tsx';
import { PlayerPanel, type SeatsLive } from './PlayerPanel.tsx';
import { RegionStrip } from './RegionStrip.tsx';
import { Regions } from './Regions.tsx';
import { RulesProvider } from './rules.tsx';
import { type SidePanel, SidePanels, usePhone } from './SidePanels.tsx';
import { tellsTheEnd, useScoringShow } from './scoringShow.ts';
import { TableOptions, useTableCues } from './TableCues.tsx';
import { TableKey } from './TableKey.tsx';
import { Track } from './Track.tsx';
import { rememberOrigin, skipOnInput } from './tableMotion.ts';

export interface MatchViewProps {
  /** The match's deck and variants. */
  rules: RulesContext;
  view: State;
  /** The local seat, or null for a spectator. */
  seat: Seat | null;
  names: Record<Seat, string>;
  log: LogEntry[];
  /** What the last move did, shown above the table. */
  recent: LogEntry[];
  /** A move is on its way: controls are disabled until the answer. */
  pending: boolean;
  /** The page holds a live, synced connection; without one, controls are disabled. */
  connected: boolean;
  /** A seat is still free: the table is shown, but nobody decides anything yet. */
  waitingForOpponent?: boolean;
  /**
   * More panels beside the table (the chat): tabs before the log and the regions, the first of
   * them shown at first.
   */
  panels?: SidePanel[];
  /** Who is here and the clock, for the players' panels (a live match only). */
  live?: SeatsLive;
  /** What else a live match shows beside the table (claiming the win, rematch, the deck). */
  aside?: ReactNode;
  /** The connection's bar, at the top of the side column. */
  bar?: ReactNode;
  /** Sends one move (a confirmed draft of cubes is one placeCubes move). */
  onMove: (move: MoveName, args: unknown[]) => void;
  /** Cells and cards the table points at (the analysis's better move, a tutorial's step). */
  marks?: TableMarks;
  /**
   * A live match ends on the table's own area (EndStage), with what it offers then; without it
   * (a replay, the hot-seat table, the tutorial) the result comes in the side column.
   */
  ending?: Ending;
}

/** The whole table for one viewer. It renders the view and offers only what legalMoves allows. */
export function MatchView({
  rules,
  view,
  seat,
  names,
  log,
  recent,
  pending,
  connected,
  waitingForOpponent = false,
  panels = [],
  live,
  aside,
  bar,
  onMove,
  marks,
  ending,
}: MatchViewProps) {
  const { t } = useTranslation();
  const choices = useMemo(
    () => (waitingForOpponent ? noChoices() : choicesFor(rules, view, seat)),
    [rules, view, seat, waitingForOpponent],
  );
  const [selectedCard, setSelectedCard] = useState<CardId | null>(null);
  const [pickFrom, setPickFrom] = useState<{ target: CardId; from: CardId[] } | null>(null);
  const [previewCard, setPreviewCard] = useState<CardId | null>(null);
  const draft = useCubeDraft(rules, view, seat, choices);
  // The final scoring plays before the winner is told: until then nothing tells the end.
  const show = useScoringShow(rules, view);
  const told = (entries: LogEntry[]) =>
    show.revealed ? entries : entries.filter((e) => !tellsTheEnd(e));
  const shownRecent = told(recent);

  // A new state ends any half-made choice that is no longer on offer.
  useEffect(() => {
    setSelectedCard((card) => (card && choices.play.has(card) ? card : null));
    setPickFrom(null);
  }, [choices]);

  // On a phone the hand sits below the table: once a card is chosen, bring its cells into view,
  // and take the keyboard there too (the first legal cell), so Tab need not travel back.
  const boardArea = useRef<HTMLDivElement>(null);
  const reduced = useReducedMotion();
  const phone = usePhone();
  const top = useRef<HTMLDivElement>(null);
  // A phone opens on the table itself (the track on top, the dock below), not on the page's header.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when play begins
  useEffect(() => {
    if (phone && !waitingForOpponent && !view.result)
      top.current?.scrollIntoView?.({ block: 'start' });
  }, [waitingForOpponent]);
  useBoardRoom(top, phone);
  useEffect(() => {
    if (!selectedCard) return;
    boardArea.current?.scrollIntoView?.({ behavior: reduced ? 'auto' : 'smooth', block: 'center' });
    boardArea.current
      ?.querySelector<HTMLButtonElement>('.legal-cell')
      ?.focus({ preventScroll: true });
  }, [selectedCard, reduced]);

  // The tab title tells a player whose turn it is while they look elsewhere.
  const myDecision = !waitingForOpponent && seat !== null && view.decision?.seat === seat;
  useEffect(() => {
    document.title = myDecision ? t('app.yourTurnTitle') : t('app.title');
    return () => {
      document.title = t('app.title');
    };
  }, [myDecision, t]);

  useTableCues(view, seat, shownRecent, myDecision);
  useEffect(skipOnInput, []);

  const send = (move: MoveName, args: unknown[]) => {
    setSelectedCard(null);
    setPickFrom(null);
    onMove(move, args);
  };

  const onCell = (cell: Cell) => {
    const d = view.decision;
    if (selectedCard) {
      rememberOrigin(
        selectedCard,
        document.querySelector(`.own-hand [data-card="${selectedCard}"]`),
      );
      send('playCard', [selectedCard, cell]);
    } else if (d?.kind === 'moveCard') send('moveCard', [d.cardId, cell]);
  };

  const onCard = (cardId: CardId) => {
    if (pickFrom) {
      draft.add([pickFrom.target, cardId]);
      setPickFrom(null);
      return;
    }
    const place = draft.choices.place.get(cardId);
    if (place && place.from.length > 0) setPickFrom({ target: cardId, from: place.from });
    else if (place) draft.add([cardId]);
    else if (choices.remove.has(cardId)) send('removeCube', [cardId]);
  };

  const cancel = () => {
    setSelectedCard(null);
    setPickFrom(null);
  };

  const blocked = pending || !connected;
  const notice = pending ? t('match.sending') : connected ? null : t('match.notConnected');

  const lastPlay = log.findLast((e) => e.type === 'play' || e.type === 'move');
  const lastPlayed = lastPlay && 'cardId' in lastPlay ? lastPlay.cardId : null;

  const boardChoices = pickFrom ? { ...draft.choices, remove: new Set<CardId>() } : draft.choices;

  const scored = shownRecent.findLast((e) => e.type === 'regionScored');
  const scoring = show.region ?? (scored?.type === 'regionScored' ? scored.score.region : null);

  const prompt = view.result ? null : waitingForOpponent ? (
    <section className="panel prompt" aria-label={t('prompt.label')} data-waiting>
      <p className="prompt-heading">{t('match.gameBegins')}</p>
    </section>
  ) : (
    <DecisionPrompt
      view={draft.view}
      seat={seat}
      names={names}
      choices={draft.choices}
      selectedCard={selectedCard}
      pickFrom={pickFrom}
      blocked={blocked}
      notice={notice}
      onMove={send}
      onCancel={cancel}
      draft={draft}
      onConfirmDraft={() => {
        const { move, args } = draft.move();
        send(move, args);
      }}
    />
  );

  // The viewer's own seat sits at the bottom of the column, the opponent's at the top; a
  // spectator sees the seats in the lobby's order.
  const below: Seat = seat ?? '1';
  const above: Seat = below === '0' ? '1' : '0';

  return (
    <RulesProvider value={rules}>
      <div
        ref={top}
        className="match-view"
        data-seat={seat ?? 'spectator'}
        data-table-waiting={waitingForOpponent || undefined}
        data-over={view.result ? true : undefined}
        data-drafting={draft.active || undefined}
      >
        <div className="match-main">
          <div className="match-head">
            <Track marker={show.marker} />
            <RoundLine view={view} />
          </div>
          <RegionStrip view={view} scoring={scoring} />
          {!waitingForOpponent && (
            <Announcer view={view} seat={seat} recent={shownRecent} revealed={show.revealed} />
          )}
          <div ref={boardArea} className="match-board">
            <Board
              // The table starts afresh when play begins: the waiting state's small frame
              // must not leave the table on compact cards.
              key={waitingForOpponent ? 'waiting' : 'playing'}
              view={draft.view}
              choices={boardChoices}
              selectedCard={selectedCard}
              pickFrom={pickFrom?.from ?? null}
              lastPlayed={lastPlayed}
              scoring={scoring}
              drafted={draft.drafted}
              previewCard={previewCard}
              marks={marks}
              disabled={blocked}
              onCell={onCell}
              onCard={onCard}
            />
            <TableKey />
            {ending && view.result && (
              <EndStage view={view} names={names} show={show} ending={ending} />
            )}
          </div>
          {(prompt || (seat !== null && !view.result)) && (
            <div className="match-dock">
              {prompt}
              {seat !== null && !view.result && (
                <OwnHand
                  view={view}
                  seat={seat}
                  playable={new Set(choices.play.keys())}
                  selected={selectedCard}
                  disabled={blocked}
                  onSelect={(id) => setSelectedCard((card) => (card === id ? null : id))}
                  onPreview={setPreviewCard}
                />
              )}
            </div>
          )}
        </div>
        <div className="match-side">
          {bar}
          <PlayerPanel view={view} seat={above} viewer={seat} names={names} live={live} />
          {view.result && !ending && (
            <div className="match-result">
              <EndScreen view={view} names={names} show={show} />
            </div>
          )}
          <RecentEntries entries={shownRecent} deck={rules.deck} table={view.table} />
          {aside}
          <SidePanels
            initial={panels[0]?.id ?? 'log'}
            panels={[
              ...panels,
              {
                id: 'log',
                label: t('table.tabLog'),
                content: <MoveLog log={told(log)} deck={rules.deck} table={view.table} />,
              },
              {
                id: 'regions',
                label: t('table.tabRegions'),
                content: (
                  <>
                    <Regions view={view} />
                    {isReconstructed(rules.deck) && (
                      <p className="deck-note">{t('board.deckNote', { name: rules.deck.name })}</p>
                    )}
                  </>
                ),
              },
              {
                id: 'options',
                label: t('table.options'),
                content: <TableOptions player={seat !== null} />,
              },
            ]}
          />
          <PlayerPanel view={view} seat={below} viewer={seat} names={names} live={live} />
        </div>
      </div>
    </RulesProvider>
  );
}

/**
 * On a phone the dock (the decision and the hand) sticks to the bottom of the screen, above the
 * tabs: the table's frame gets the height left between its top and the dock (`--board-room`),
 * so no card lies under the dock while the match view is scrolled to its start, where the phone
 * opens it. Measured again when the dock, the things above the frame or the window change size.
 */
function useBoardRoom(view: RefObject<HTMLDivElement | null>, phone: boolean) {
  // Before the first paint: measured only by the observer, the frame changed height once the
  // table was on screen, moving the table and everything below it (a layout shift).
  useLayoutEffect(() => {
    const el = view.current;
    if (!el) return;
    if (!phone || typeof ResizeObserver === 'undefined') {
      el.style.removeProperty('--board-room');
      return;
    }
    const measure = () => {
      const frame = el.querySelector('.board-frame');
      const dock = el.querySelector<HTMLElement>('.match-dock');
      // Without a dock (the end, the result on top) the frame keeps the stylesheet's height.
      if (!frame || !dock) {
        el.style.removeProperty('--board-room');
        return;
      }
      const top = frame.getBoundingClientRect().top - el.getBoundingClientRect().top;
      // The dock sticks this far above the window's bottom (the tabs' height), one row gap
      // below the table.
      const px = (value: string) => Number.parseFloat(value) || 0;
      const below =
        dock.offsetHeight + px(getComputedStyle(dock).bottom) + px(getComputedStyle(el).rowGap);
      const room = `${Math.floor(window.innerHeight - top - below)}px`;
      if (el.style.getPropertyValue('--board-room') !== room)
        el.style.setProperty('--board-room', room);
    };
    // The view's height changes with anything in it (the panels, the announcer, the dock,
    // which stays in the flow); a frame set to the same height again changes nothing, so this
    // settles.
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      el.style.removeProperty('--board-room');
    };
  }, [view, phone]);
}

/** Which round, how many cards of it are played, and how many wait in the reserve. */
function RoundLine({ view }: { view: State }) {
  const { t } = useTranslation();
  return (
    <p className="round-line">
      <span>
        {t('seatPanels.round', { round: view.round, plays: view.plays, of: PLAYS_PER_ROUND })}
      </span>
      <span>{t('board.reserve', { count: view.reserve.length })}</span>
    </p>
  );
}
