import { type CardId, type Cell, indexDeck, type State } from '@iron-curtain/game';
import {
  type CSSProperties,
  memo,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { CardFace, useCubeStatus } from './CardFace.tsx';
import { type Choices, cellKey } from './choices.ts';
import { regionStyle } from './regionStyle.ts';
import { useRules } from './rules.tsx';
import { flyIn } from './tableMotion.ts';

const CELL_W = 156;
const CELL_H = 212;
/** A compact card leaves out the event text (a tap shows it): names and values stay legible. */
const COMPACT_W = 128;
const COMPACT_H = 92;
const GAP = 8;
/** Below this fit, the full cards' event text would shrink past reading: compact cards instead. */
const COMPACT_BELOW = 0.92;
/**
 * The smallest zoom Fit chooses for compact cards: their names and command values (15.2 px)
 * stay at 12 px or more. A table wider than the frame at this zoom pans instead of shrinking.
 */
const LEGIBLE_SCALE = 0.8;
/** Compact faces grow up to this in a large frame: a wide screen's room goes to the cards. */
const COMPACT_FIT_MAX = 1.3;
const MIN_SCALE = 0.3;
const MAX_SCALE = 1.6;

export interface BoardProps {
  view: State;
  choices: Choices;
  /** The hand card chosen to be played: its legal cells are shown. */
  selectedCard: CardId | null;
  /** Cards a cube may be taken back from (the supply is empty), once a target is chosen. */
  pickFrom: CardId[] | null;
  /** The card played or moved last, outlined. */
  lastPlayed: CardId | null;
  /** The region that just scored: its cards light up in turn. */
  scoring?: string | null;
  /** Cubes drafted but not yet sent, per card: already in `view`, marked as a draft. */
  drafted?: Record<CardId, number>;
  /** A hand card pointed at (hovered or focused): where it may go is shown, not offered. */
  previewCard?: CardId | null;
  /** Cells and cards to point at (a better move in the analysis, a tutorial's step). */
  marks?: TableMarks;
  disabled: boolean;
  onCell: (cell: Cell) => void;
  onCard: (cardId: CardId) => void;
}

/** What the table points at, besides what the current decision offers. */
export interface TableMarks {
  cells: Cell[];
  cards: CardId[];
  /** What the marked cells are for, written in them. */
  label?: string;
}

/** Time between two cards of a scoring region lighting up. */
const SCORING_GAP_MS = 120;

/**
 * Cards new on the table fly in from where they came from: the player's own hand (remembered when
 * the move was made) or the opponent's side, above the table. Nothing moves under reduced motion.
 */
function useArrivals(view: State): RefObject<HTMLElement | null> {
  const grid = useRef<HTMLElement>(null);
  const known = useRef<Set<CardId> | null>(null);
  const reduced = useReducedMotion();
  useLayoutEffect(() => {
    const before = known.current;
    known.current = new Set(view.table.map((p) => p.cardId));
    const el = grid.current;
    if (!before || reduced || !el) return;
    // Most moves bring no card (cubes, decisions): then nothing is measured, since reading a
    // place on screen right after React's changes forces a layout.
    const arrived = view.table.filter((placed) => !before.has(placed.cardId));
    if (arrived.length === 0) return;
    const frame = (el.closest('.board-frame') ?? el).getBoundingClientRect();
    const above = new DOMRect(frame.left + frame.width / 2 - 60, frame.top - 100, 120, 90);
    for (const placed of arrived) {
      const card = el.querySelector<HTMLElement>(`[data-card="${placed.cardId}"]`);
      if (card) flyIn(card, placed.cardId, above);
    }
  }, [view.table, reduced]);
  return grid;
}

/** The empty cells to offer now: where the chosen card may go, or where the event may move a card. */
function offeredCells(choices: Choices, selectedCard: CardId | null): Cell[] {
  if (selectedCard) return choices.play.get(selectedCard) ?? [];
  return choices.moveTo;
}

/** The key of what a click on this card does now, or null when it does nothing. */
/** The notes a table card can carry; each has a `…Short` form for a compact card's face. */
type CardNoteKey = 'board.takeBack' | 'board.placeCost2' | 'board.placeCost1' | 'board.removeCube';

function cardNote(cardId: CardId, choices: Choices, pickFrom: CardId[] | null): CardNoteKey | null {
  if (pickFrom) return pickFrom.includes(cardId) ? 'board.takeBack' : null;
  const place = choices.place.get(cardId);
  if (place) return place.cost === 2 ? 'board.placeCost2' : 'board.placeCost1';
  if (choices.remove.has(cardId)) return 'board.removeCube';
  return null;
}

/** The grid of placed cards around the starter, with the legal cells and target cards highlighted. */
export function Board({
  view,
  choices,
  selectedCard,
  pickFrom,
  lastPlayed,
  scoring = null,
  drafted = {},
  previewCard = null,
  marks,
  disabled,
  onCell,
  onCard,
}: BoardProps) {
  const { t } = useTranslation();
  const rules = useRules();
  const words = useGameWords();
  const deck = indexDeck(rules.deck);
  const grid = useArrivals(view);
  // Each showing is its own dialog: a card shown again before the last one's close event has
  // come opens anew, and that late event closes only the showing it belongs to.
  const [shown, setShown] = useState<{ cardId: CardId; showing: number } | null>(null);
  const showings = useRef(0);
  const show = useCallback(
    (cardId: CardId) => setShown({ cardId, showing: ++showings.current }),
    [],
  );
  // The same function on every render, so a card whose words did not change is not drawn again.
  const onCardNow = useRef(onCard);
  onCardNow.current = onCard;
  const clickCard = useCallback((cardId: CardId) => onCardNow.current(cardId), []);
  const hide = (showing: number) => setShown((s) => (s?.showing === showing ? null : s));
  const shownCard = shown ? view.table.find((p) => p.cardId === shown.cardId) : undefined;
  const scoringCards = scoring
    ? view.table.filter((p) => deck.card(p.cardId).region === scoring).map((p) => p.cardId)
    : [];
  const cells = offeredCells(choices, selectedCard);
  const previewed = !selectedCard && previewCard ? (choices.play.get(previewCard) ?? []) : [];
  const marked = marks?.cells ?? [];
  // While a hand card is pointed at or chosen, every cell any hand card may go to counts for the
  // table's size: moving from one card to another never rescales the table.
  const handCells = selectedCard || previewCard ? [...choices.play.values()].flat() : [];
  const all = [...view.table, ...cells, ...handCells, ...marked];
  const minX = Math.min(...all.map((c) => c.x));
  const minY = Math.min(...all.map((c) => c.y));
  const cols = Math.max(...all.map((c) => c.x)) - minX + 1;
  const rows = Math.max(...all.map((c) => c.y)) - minY + 1;
  const sizeOf = (cellW: number, cellH: number) => ({
    width: cols * (cellW + GAP) + GAP,
    height: rows * (cellH + GAP) + GAP,
  });
  const full = sizeOf(CELL_W, CELL_H);
  const compact = sizeOf(COMPACT_W, COMPACT_H);
  // The middle of the cards on the table (not of the cells offered around them): where the
  // frame opens when the table is larger than it.
  const placed = view.table.length > 0 ? view.table : all;
  const cardsX = (Math.min(...placed.map((c) => c.x)) + Math.max(...placed.map((c) => c.x))) / 2;
  const cardsY = (Math.min(...placed.map((c) => c.y)) + Math.max(...placed.map((c) => c.y))) / 2;
  const middleOf = (cellW: number, cellH: number) => ({
    x: GAP + (cardsX - minX) * (cellW + GAP) + cellW / 2,
    y: GAP + (cardsY - minY) * (cellH + GAP) + cellH / 2,
  });
  const fullMiddle = middleOf(CELL_W, CELL_H);
  const compactMiddle = middleOf(COMPACT_W, COMPACT_H);
  const moving = view.decision?.kind === 'moveCard' ? view.decision.cardId : null;
  /** A cell named by the cards beside it ("left of Poland"), never by its coordinates. */
  const where = (cell: Cell, except?: CardId) => words.beside(rules.deck, view.table, cell, except);

  return (
    <>
      {shown && shownCard && (
        <CardZoom
          key={shown.showing}
          label={words.cardName(rules.deck, shownCard.cardId)}
          onClose={() => hide(shown.showing)}
        >
          <CardFace
            deck={rules.deck}
            card={deck.card(shownCard.cardId)}
            region={deck.region(deck.card(shownCard.cardId).region)}
            cubes={shownCard.cubes}
          />
        </CardZoom>
      )}
      <Viewport
        fullWidth={full.width}
        fullHeight={full.height}
        compactWidth={compact.width}
        compactHeight={compact.height}
        fullMiddle={fullMiddle}
        compactMiddle={compactMiddle}
      >
        {(compact) => {
          const [cellW, cellH] = compact ? [COMPACT_W, COMPACT_H] : [CELL_W, CELL_H];
          const at = (cell: Cell) => ({
            left: GAP + (cell.x - minX) * (cellW + GAP),
            top: GAP + (cell.y - minY) * (cellH + GAP),
            width: cellW,
            height: cellH,
          });
          return (
            <section
              ref={grid}
              className={`board-grid${compact ? ' compact' : ''}`}
              aria-label={t('board.table')}
              style={sizeOf(cellW, cellH)}
            >
              {/* Each card's region under it, half a gap wider: a region's neighbouring cards
                  merge into one coloured ground, so a region reads as a group. */}
              {view.table.map((placed) => {
                const region = deck.card(placed.cardId).region;
                const cell = at(placed);
                return (
                  <span
                    key={`ground-${placed.cardId}`}
                    className={`region-ground${region === scoring ? ' scoring' : ''}`}
                    data-ground={region}
                    aria-hidden="true"
                    style={
                      {
                        left: cell.left - GAP / 2,
                        top: cell.top - GAP / 2,
                        width: cell.width + GAP,
                        height: cell.height + GAP,
                        '--region': regionStyle(deck.region(region)).colour,
                      } as CSSProperties
                    }
                  />
                );
              })}
              {view.table.map((placed) => {
                const cell = at(placed);
                return (
                  <PlacedCard
                    key={placed.cardId}
                    cardId={placed.cardId}
                    us={placed.cubes.US}
                    ussr={placed.cubes.USSR}
                    left={cell.left}
                    top={cell.top}
                    width={cell.width}
                    height={cell.height}
                    place={where(placed, placed.cardId)}
                    noteKey={cardNote(placed.cardId, choices, pickFrom)}
                    moving={moving === placed.cardId}
                    compact={compact}
                    lit={scoringCards.indexOf(placed.cardId)}
                    marked={marks?.cards.includes(placed.cardId) ?? false}
                    drafted={drafted[placed.cardId] ?? 0}
                    last={lastPlayed === placed.cardId}
                    disabled={disabled}
                    onCard={clickCard}
                    onShow={compact ? show : undefined}
                  />
                );
              })}
              {cells.map((cell) => (
                <button
                  key={cellKey(cell)}
                  type="button"
                  className="legal-cell"
                  data-cell={cellKey(cell)}
                  data-choice="cell"
                  disabled={disabled}
                  style={at(cell)}
                  onClick={() => onCell(cell)}
                >
                  {selectedCard
                    ? t('board.playHere', { card: words.cardName(rules.deck, selectedCard) })
                    : t('board.moveHere')}{' '}
                  <span className="cell-place">{where(cell, moving ?? undefined)}</span>
                </button>
              ))}
              {previewed.map((cell) => (
                <div
                  key={`preview ${cellKey(cell)}`}
                  className="legal-cell preview"
                  data-preview-cell={cellKey(cell)}
                  style={at(cell)}
                  aria-hidden="true"
                />
              ))}
              {marked.map((cell) => (
                <div
                  key={`mark ${cellKey(cell)}`}
                  className="marked-cell"
                  data-marked-cell={cellKey(cell)}
                  style={at(cell)}
                  aria-hidden="true"
                >
                  {marks?.label}
                </div>
              ))}
            </section>
          );
        }}
      </Viewport>
    </>
  );
}

interface PlacedCardProps {
  cardId: CardId;
  /** Its cubes, each side's count: a fresh state brings new cube objects with every move. */
  us: number;
  ussr: number;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Where it lies, in words (the cards beside it). */
  place: string;
  /** What a click on it does now, if anything. */
  noteKey: CardNoteKey | null;
  moving: boolean;
  compact: boolean;
  /** Its turn in a region's scoring, or -1. */
  lit: number;
  marked: boolean;
  drafted: number;
  last: boolean;
  disabled: boolean;
  onCard: (cardId: CardId) => void;
  onShow: ((cardId: CardId) => void) | undefined;
}

/**
 * A card on the table with its words for screen readers. A live match renders the table on every
 * move; only the cards whose props changed are put into words and drawn again.
 */
const PlacedCard = memo(function PlacedCard({
  cardId,
  us,
  ussr,
  left,
  top,
  width,
  height,
  place,
  noteKey,
  moving,
  compact,
  lit,
  marked,
  drafted,
  last,
  disabled,
  onCard,
  onShow,
}: PlacedCardProps) {
  const { t } = useTranslation();
  const rules = useRules();
  const words = useGameWords();
  const cubeStatus = useCubeStatus();
  const deck = indexDeck(rules.deck);
  const card = deck.card(cardId);
  const cubes = { US: us, USSR: ussr };
  const note = noteKey ? t(noteKey) : null;
  // The face says it in a word; the button's name keeps the whole sentence.
  const faceKey = noteKey ?? (moving ? ('board.beingMoved' as const) : null);
  const faceNote = faceKey ? t(compact ? `${faceKey}Short` : faceKey) : null;
  const said = t('board.cardOnTable', {
    card: words.cardName(rules.deck, card.id),
    region: words.regionName(rules.deck, card.region),
    cubes: `${words.side('US')} ${us}, ${words.side('USSR')} ${ussr}, ${cubeStatus(cubes)}`,
  });
  const label = [said, place && t('board.cardPlace', { where: place })].filter(Boolean).join('. ');
  const draftedHere = drafted && t('cubeDraft.draftedHere', { n: drafted });
  const at = { left, top, width, height };
  return (
    <TableCard
      label={[label, draftedHere, note].filter(Boolean).join('. ')}
      // A compact face says the note in a word: the whole sentence is added.
      more={[place && t('board.cardPlace', { where: place }), draftedHere, compact && note]
        .filter(Boolean)
        .join('. ')}
      style={lit < 0 ? at : { ...at, animationDelay: `${lit * SCORING_GAP_MS}ms` }}
      cardId={cardId}
      scoring={lit >= 0}
      marked={marked}
      drafted={drafted}
      target={note !== null}
      moving={moving}
      last={last}
      disabled={disabled}
      onClick={() => onCard(cardId)}
      onShow={onShow ? () => onShow(cardId) : undefined}
    >
      <CardFace
        deck={rules.deck}
        card={card}
        region={deck.region(card.region)}
        cubes={cubes}
        note={faceNote}
        compact={compact}
      />
    </TableCard>
  );
});

/**
 * A compact card's full face, over the table: a modal <dialog>, so the browser keeps the
 * keyboard inside it, closes it on Escape and gives the focus back to the card that opened it.
 */
function CardZoom({
  label,
  onClose,
  children,
}: {
  label: string;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  // On the page's body, outside the scaled table, so the face keeps its own size.
  return createPortal(
    <dialog ref={dialog} className="card-zoom" aria-label={label} onClose={onClose}>
      <div className="card-zoom-face">
        {children}
        <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
          {t('table.close')}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}

interface TableCardProps {
  cardId: CardId;
  /** Name, region, place and cubes in words: what a screen reader announces for a card at rest. */
  label: string;
  /**
   * A card that is a button is named by its face, so the name holds every word it shows (a
   * voice command says what it sees); this follows, for screen readers only: its place, the
   * cubes drafted on it, what a click does.
   */
  more: string;
  style: CSSProperties;
  /** A card the current decision can act on: a button. */
  target: boolean;
  moving: boolean;
  last: boolean;
  /** Lit as part of a region scoring. */
  scoring: boolean;
  /** Pointed at from outside the decision (the analysis, the tutorial). */
  marked: boolean;
  /** Cubes drafted here, not yet sent. */
  drafted: number;
  disabled: boolean;
  onClick: () => void;
  /** A compact card: a tap shows its full face. */
  onShow?: (() => void) | undefined;
  children: ReactNode;
}

function TableCard({
  cardId,
  label,
  more,
  style,
  target,
  moving,
  last,
  scoring,
  marked,
  drafted,
  disabled,
  onClick,
  onShow,
  children: face,
}: TableCardProps) {
  const marks = `${moving ? ' moving' : ''}${last ? ' last' : ''}${scoring ? ' scoring' : ''}${marked ? ' marked' : ''}${drafted > 0 ? ' drafted' : ''}`;
  const children = (
    <>
      {face}
      {drafted > 0 && (
        <span className="draft-badge" data-drafted={drafted} aria-hidden="true">
          +{drafted}
        </span>
      )}
    </>
  );
  // A button's name is its face and then the words it does not show.
  const named = (
    <>
      {children} <span className="sr-only">{more}</span>
    </>
  );
  if (!target && onShow) {
    return (
      <button
        type="button"
        className={`table-card${marks}`}
        data-card={cardId}
        style={style}
        aria-haspopup="dialog"
        onClick={onShow}
      >
        {named}
      </button>
    );
  }
  if (!target) {
    return (
      <div
        className={`table-card${marks}`}
        data-card={cardId}
        style={style}
        role="img"
        aria-label={label}
      >
        {children}
      </div>
    );
  }
  return (
    <button
      type="button"
      className={`table-card target${marks}`}
      data-card={cardId}
      data-choice="card"
      disabled={disabled}
      style={style}
      onClick={onClick}
    >
      {named}
    </button>
  );
}

/** Scrollable, zoomable frame: fits the world by default, zooms with the buttons or ctrl + wheel, drags with the mouse. */
function Viewport({
  fullWidth,
  fullHeight,
  compactWidth,
  compactHeight,
  fullMiddle,
  compactMiddle,
  children,
}: {
  /** The table's size with full cards, and with compact ones. */
  fullWidth: number;
  fullHeight: number;
  compactWidth: number;
  compactHeight: number;
  /** The middle of the table's cards, unscaled, with full cards and with compact ones. */
  fullMiddle: { x: number; y: number };
  compactMiddle: { x: number; y: number };
  /** The table, with full or compact cards. */
  children: (compact: boolean) => ReactNode;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLElement>(null);
  const [view, setView] = useState({ scale: 1, compact: false });
  const [fit, setFit] = useState(true);
  const { scale } = view;
  const [width, height] = view.compact ? [compactWidth, compactHeight] : [fullWidth, fullHeight];

  // The frame's size as the observer last measured it: read from the element in a layout effect,
  // right after React's changes to the table, it would force a layout on every card that lands.
  // Read from the element only until the observer has measured it.
  const measured = useRef({ width: 0, height: 0 });
  const frameSize = useCallback(() => {
    const el = frame.current;
    if (measured.current.width > 0 && measured.current.height > 0) return measured.current;
    return { width: el?.clientWidth ?? 0, height: el?.clientHeight ?? 0 };
  }, []);

  // Fit: full cards while they stay legible, then compact cards, as large as the frame allows.
  // Compact stays once chosen while the table grows, so choosing a card (its cells widen the
  // table) does not flip the faces back and forth, nor while the frame grows within the same
  // window (on a phone a draft of cubes hides the hand, and the frame takes its room for that
  // draft only); a new size of the window chooses afresh, as pressing Fit does.
  const fitView = useCallback(
    (wasCompact: boolean) => {
      const size = frameSize();
      if (size.width === 0 || size.height === 0) {
        return { scale: 1, compact: wasCompact };
      }
      const scaleFor = (w: number, h: number, max = 1) =>
        Math.min(size.width / w, size.height / h, max);
      const fullScale = scaleFor(fullWidth, fullHeight);
      return !wasCompact && fullScale >= COMPACT_BELOW
        ? { scale: fullScale, compact: false }
        : {
            scale: Math.max(LEGIBLE_SCALE, scaleFor(compactWidth, compactHeight, COMPACT_FIT_MAX)),
            compact: true,
          };
    },
    [frameSize, fullWidth, fullHeight, compactWidth, compactHeight],
  );

  // The same fit keeps the same state: the first layout and the observer's first report must
  // not render the whole table again.
  const refit = useCallback(
    (afresh: boolean) =>
      setView((v) => {
        const next = fitView(afresh ? false : v.compact);
        return next.scale === v.scale && next.compact === v.compact ? v : next;
      }),
    [fitView],
  );

  useLayoutEffect(() => {
    if (fit) refit(false);
  }, [fit, refit]);

  // The window's size when last measured, as the frame's: an observer's first report is not a
  // new size.
  const windowSize = useRef({ width: 0, height: 0 });
  useEffect(() => {
    const el = frame.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const size = { width: el.clientWidth, height: el.clientHeight };
      const resized =
        size.width !== measured.current.width || size.height !== measured.current.height;
      measured.current = size;
      const screen = { width: window.innerWidth, height: window.innerHeight };
      const newWindow =
        screen.width !== windowSize.current.width || screen.height !== windowSize.current.height;
      windowSize.current = screen;
      if (fit) refit(newWindow);
      if (resized) centre.current();
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [fit, refit]);

  // A table larger than its frame opens centred on its cards, and re-centres when it or the frame
  // changes size, until the player pans by hand: a scroll that is not where the frame last put
  // itself. Fit centres again.
  const middle = view.compact ? compactMiddle : fullMiddle;
  const panned = useRef(false);
  const centredAt = useRef({ left: 0, top: 0 });
  const centre = useRef(() => {});
  centre.current = () => {
    const el = frame.current;
    if (!el || !fit || panned.current) return;
    const size = frameSize();
    el.scrollLeft = middle.x * scale - size.width / 2;
    el.scrollTop = middle.y * scale - size.height / 2;
    centredAt.current = { left: el.scrollLeft, top: el.scrollTop };
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new size or middle of the table re-centres it
  useLayoutEffect(() => centre.current(), [fit, scale, width, height, middle.x, middle.y]);
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onScroll = () => {
      const at = centredAt.current;
      if (Math.abs(el.scrollLeft - at.left) > 1 || Math.abs(el.scrollTop - at.top) > 1) {
        panned.current = true;
      }
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  const zoom = useCallback((factor: number) => {
    setFit(false);
    setView((v) => ({ ...v, scale: Math.min(MAX_SCALE, Math.max(MIN_SCALE, v.scale * factor)) }));
  }, []);

  // Ctrl + wheel (and trackpad pinch) zooms; a plain wheel scrolls as usual.
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey && !event.metaKey) return;
      event.preventDefault();
      zoom(event.deltaY < 0 ? 1.1 : 1 / 1.1);
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [zoom]);

  useMouseDragPan(frame);

  return (
    <div className="board">
      <div className="board-tools">
        <button type="button" onClick={() => zoom(1 / 1.2)} aria-label={t('board.zoomOut')}>
          −
        </button>
        <span className="zoom-level">{Math.round(scale * 100)}%</span>
        <button type="button" onClick={() => zoom(1.2)} aria-label={t('board.zoomIn')}>
          +
        </button>
        <button
          type="button"
          onClick={() => {
            setFit(true);
            setView(fitView(false));
            panned.current = false;
            centre.current();
          }}
          aria-pressed={fit}
        >
          {t('board.fit')}
        </button>
      </div>
      {/* The frame scrolls: a focusable, named group lets keyboard users scroll it with the arrows. */}
      <section
        className="board-frame"
        ref={frame}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must be reachable by keyboard
        tabIndex={0}
        aria-label={t('board.tableFrame')}
      >
        <div className="board-sizer" style={{ width: width * scale, height: height * scale }}>
          <div
            className="board-scaled"
            // Centred in a frame larger than the table by a transform, not by the sizer's margins:
            // the sizer stays at the frame's corner whatever the fit, so a re-fit (the window, the
            // phone's dock measured, a card landing) moves no box and is no layout shift.
            style={{
              transform: `translate(calc((100cqw - ${width * scale}px) / 2), calc((100cqh - ${height * scale}px) / 2)) scale(${scale})`,
            }}
          >
            {children(view.compact)}
          </div>
        </div>
      </section>
    </div>
  );
}

/** Dragging the board with the mouse scrolls it; a drag never counts as a click on a card. */
function useMouseDragPan(frame: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const el = frame.current;
    if (!el) return;
    let start: { x: number; y: number; left: number; top: number } | null = null;
    let dragged = false;
    const down = (e: PointerEvent) => {
      if (e.pointerType !== 'mouse' || e.button !== 0) return;
      start = { x: e.clientX, y: e.clientY, left: el.scrollLeft, top: el.scrollTop };
      dragged = false;
    };
    const move = (e: PointerEvent) => {
      if (!start) return;
      const dx = e.clientX - start.x;
      const dy = e.clientY - start.y;
      if (!dragged && Math.hypot(dx, dy) < 6) return;
      dragged = true;
      el.scrollLeft = start.left - dx;
      el.scrollTop = start.top - dy;
    };
    const up = () => {
      start = null;
    };
    const click = (e: MouseEvent) => {
      if (!dragged) return;
      dragged = false;
      e.stopPropagation();
      e.preventDefault();
    };
    el.addEventListener('pointerdown', down);
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    el.addEventListener('click', click, true);
    return () => {
      el.removeEventListener('pointerdown', down);
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      el.removeEventListener('click', click, true);
    };
  }, [frame]);
}
