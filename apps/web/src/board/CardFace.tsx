import './table.css';
import {
  type Card,
  type Cubes,
  controlledBy,
  type Deck,
  dominatedBy,
  type FieldStatus,
  type Region,
  type Side,
} from '@iron-curtain/game';
import {
  type CSSProperties,
  memo,
  type ReactNode,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useReducedMotion } from '../app/motion.ts';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { regionStyle } from './regionStyle.ts';
import { popIn, popOut } from './tableMotion.ts';

/** Marks a field of the default deck that is a reconstruction, not the printed card. */
export function Reconstructed({ status }: { status: FieldStatus }) {
  return status === 'reconstructed' ? <ReconstructedMark /> : null;
}

// Its own component, so a printed field (most of them) asks for no translation at all.
const ReconstructedMark = memo(function ReconstructedMark() {
  const { t } = useTranslation();
  return (
    <span className="recon" title={t('board.reconstructed')}>
      <span aria-hidden="true">◇</span>
      <span className="sr-only">{t('board.reconstructedShort')}</span>
    </span>
  );
});

export function RegionTag({ deck, region }: { deck: Deck; region: Region }) {
  const words = useGameWords();
  const style = regionStyle(region);
  return (
    <span className="region-tag" style={{ background: style.colour }}>
      <span aria-hidden="true">{style.symbol}</span> {words.regionName(deck, region.id)}
    </span>
  );
}

/** Who holds a card, in words: the German edition swaps "dominate" and "control" in its texts. */
export function useCubeStatus(): (cubes: Cubes) => string {
  const { t } = useTranslation();
  const words = useGameWords();
  return (cubes) => {
    const control = controlledBy(cubes);
    const dominant = dominatedBy(cubes);
    return control
      ? t('board.controls', { side: words.side(control) })
      : dominant
        ? t('board.dominates', { side: words.side(dominant) })
        : cubes.US + cubes.USSR > 0
          ? t('board.tied')
          : t('board.noCubes');
  };
}

/** A cube drawn in three shaded faces, in its side's colour. */
export function Cube({ side, leaving = false }: { side: Side; leaving?: boolean }) {
  return (
    <svg
      className={`cube3d ${side === 'US' ? 'us' : 'ussr'}${leaving ? ' leaving' : ''}`}
      viewBox="0 0 20 20"
      aria-hidden="true"
    >
      <path className="face-left" d="M2 6l8 4v9l-8-4z" />
      <path className="face-right" d="M18 6l-8 4v9l8-4z" />
      <path className="face-top" d="M10 2l8 4-8 4-8-4z" />
    </svg>
  );
}

/** How many cubes are drawn before the count says the rest. */
const DRAWN = 4;

/** Time between two cubes arriving or leaving. */
const CUBE_GAP_MS = 80;

/** One side's cubes on a card: drawn up to a few, always counted; they arrive and leave one by one. */
function CubePile({ side, count }: { side: Side; count: number }) {
  const reduced = useReducedMotion();
  const previous = useRef(count);
  const stack = useRef<HTMLSpanElement>(null);
  const [leaving, setLeaving] = useState(0);
  const drawn = Math.min(count, DRAWN);

  useLayoutEffect(() => {
    const before = Math.min(previous.current, DRAWN);
    const grew = count > previous.current;
    previous.current = count;
    if (reduced) return;
    const cubes = stack.current?.querySelectorAll('.cube3d:not(.leaving)') ?? [];
    if (grew) {
      for (let i = before; i < drawn; i++) {
        const cube = cubes[i];
        if (cube) popIn(cube, (i - before) * CUBE_GAP_MS);
      }
    } else if (drawn < before) {
      setLeaving(before - drawn);
    }
  }, [count, drawn, reduced]);

  useEffect(() => {
    if (leaving === 0) return;
    const gone = [...(stack.current?.querySelectorAll('.cube3d.leaving') ?? [])].reverse();
    gone.forEach((cube, i) => {
      popOut(cube, i * CUBE_GAP_MS, i === gone.length - 1 ? () => setLeaving(0) : () => {});
    });
  }, [leaving]);

  return (
    <span className={`cube-pile ${side === 'US' ? 'us' : 'ussr'}`} data-cubes={side}>
      <span className="cube-stack" aria-hidden="true" ref={stack}>
        {Array.from({ length: drawn + leaving }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: cubes of one side are identical, only counted
          <Cube key={i} side={side} leaving={i >= drawn} />
        ))}
      </span>
      <span className="cube-number" aria-hidden="true">
        {count}
      </span>
    </span>
  );
}

/** US cubes on the left, USSR on the right, always in that order; the words for screen readers. */
function CubeRow({ cubes }: { cubes: Cubes }) {
  const words = useGameWords();
  const status = useCubeStatus()(cubes);
  return (
    <span className="cubes">
      <CubePile side="US" count={cubes.US} />
      <span className="sr-only">
        {words.side('US')} {cubes.US}, {words.side('USSR')} {cubes.USSR},{' '}
        <span className="cube-status">{status}</span>
      </span>
      <CubePile side="USSR" count={cubes.USSR} />
    </span>
  );
}

/** The event, one step a line, in the current language from the card's parsed effects. */
function EventText({ deck, card }: { deck: Deck; card: Card }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const lines = words.eventLines(deck, card);
  if (lines.length === 0) return <span className="event none">{t('board.noEvent')}</span>;
  return (
    <span className="event">
      {lines.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a card's event text never changes order
        <span key={i} className="event-line">
          {line}
          {i === lines.length - 1 ? (
            <Reconstructed status={card.status.event} />
          ) : (
            t('effects.separator')
          )}
        </span>
      ))}
    </span>
  );
}

/** Who holds the card, as classes: a tint for the dominating side, a border and shield for control. */
export function holdClass(cubes: Cubes | undefined): string {
  if (!cubes) return '';
  const control = controlledBy(cubes);
  if (control) return ` held control-${control.toLowerCase()}`;
  const dominant = dominatedBy(cubes);
  return dominant ? ` held dominate-${dominant.toLowerCase()}` : '';
}

interface CardFaceProps {
  deck: Deck;
  card: Card;
  region: Region;
  /** Cubes when the card lies on the table. */
  cubes?: Cubes;
  /** Extra line at the bottom (cost of a cube here, "selected"...). */
  note?: ReactNode;
  /** A full table or a phone: name, command value, flag and cubes; the event on demand. */
  compact?: boolean;
}

/**
 * One country card as a game piece: the region's colour band with its symbol, the command value
 * in a badge, the country name large, the flag as a disc, the event, the cubes drawn.
 */
const sameCubes = (a: Cubes | undefined, b: Cubes | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.US === b.US && a.USSR === b.USSR);

/**
 * A live match re-renders the table on every move, with a fresh state (new cube objects) each
 * time: a card is drawn again only when what it shows changed.
 */
const sameFace = (a: CardFaceProps, b: CardFaceProps): boolean =>
  a.deck === b.deck &&
  a.card === b.card &&
  a.region === b.region &&
  a.note === b.note &&
  a.compact === b.compact &&
  sameCubes(a.cubes, b.cubes);

export const CardFace = memo(function CardFace({
  deck,
  card,
  region,
  cubes,
  note,
  compact = false,
}: CardFaceProps) {
  const { t } = useTranslation();
  const words = useGameWords();
  const style = regionStyle(region);
  const control = cubes ? controlledBy(cubes) : null;
  const command = card.command !== null && (
    <span className="card-value">
      <span className="card-command" title={t('board.commandValue')}>
        <span className="sr-only">{t('board.commandValue')} </span>
        {card.command}
      </span>
      <Reconstructed status={card.status.command} />
    </span>
  );
  // The starter has no flag and no command value: its label stands where they would.
  const starter = !card.flag && <span className="card-starter">{t('board.starter')}</span>;
  return (
    <span
      className={`card-face${compact ? ' compact' : ''}${note ? ' noted' : ''}${holdClass(cubes)}`}
      style={{ '--region': style.colour } as CSSProperties}
    >
      <span className="card-band">
        <span className="region-symbol" aria-hidden="true">
          {style.symbol}
        </span>
        <span className={compact ? 'sr-only' : 'region-name'}>
          {compact ? words.regionName(deck, region.id) : words.regionBandName(deck, region.id)}
        </span>
        <Reconstructed status={card.status.region} />
        {/* One group: where the band is too narrow for them beside the region's longest
            word, they take a second row together, at its end. */}
        {(control || card.flag) && (
          <span className="band-marks">
            {control && (
              <span
                className="control-shield"
                title={t('board.controls', { side: words.side(control) })}
              >
                <Flag side={control} size={14} />
              </span>
            )}
            {card.flag && (
              <span className="card-flag" title={words.side(card.flag)}>
                <Flag side={card.flag} size={compact ? 18 : 22} />
                <Reconstructed status={card.status.flag} />
              </span>
            )}
          </span>
        )}
        {compact && command}
        {compact && starter}
      </span>
      <span className="card-title">
        <span className="card-name">
          {words.cardName(deck, card.id)}
          <Reconstructed status={card.status.name} />
        </span>
        {!compact && command}
        {!compact && starter}
      </span>
      {!compact && <EventText deck={deck} card={card} />}
      {cubes && <CubeRow cubes={cubes} />}
      {note && <span className="card-note">{note}</span>}
    </span>
  );
}, sameFace);

/** Drawn again only when its label changes: a live table shows a back per hidden hand card. */
export const CardBack = memo(function CardBack({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <span className="card-back" role="img" aria-label={label ?? t('board.hiddenCard')} />;
});
