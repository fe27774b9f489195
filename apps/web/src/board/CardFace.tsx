import {
  type Card,
  type Cubes,
  controlledBy,
  type Deck,
  dominatedBy,
  type FieldStatus,
  type Region,
} from '@iron-curtain/game';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { Flag } from './Flag.tsx';
import { regionStyle } from './regionStyle.ts';

/** Marks a field of the default deck that is a reconstruction, not the printed card. */
export function Reconstructed({ status }: { status: FieldStatus }) {
  const { t } = useTranslation();
  if (status !== 'reconstructed') return null;
  return (
    <span className="recon" title={t('board.reconstructed')}>
      <span aria-hidden="true">◇</span>
      <span className="sr-only">{t('board.reconstructedShort')}</span>
    </span>
  );
}

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

function CubeRow({ cubes }: { cubes: Cubes }) {
  const { t } = useTranslation();
  const words = useGameWords();
  const control = controlledBy(cubes);
  const dominant = dominatedBy(cubes);
  const status = useCubeStatus()(cubes);
  return (
    <span className="cubes">
      <span className="cube-count us" title={t('board.usCubes')}>
        <span className="cube us" aria-hidden="true" /> {words.side('US')} {cubes.US}
      </span>
      <span className="cube-count ussr" title={t('board.ussrCubes')}>
        <span className="cube ussr" aria-hidden="true" /> {words.side('USSR')} {cubes.USSR}
      </span>
      <span className={`cube-status ${control ? 'control' : dominant ? 'dominate' : ''}`}>
        {status}
      </span>
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
          {i === lines.length - 1 ? <Reconstructed status={card.status.event} /> : ';'}
        </span>
      ))}
    </span>
  );
}

interface CardFaceProps {
  deck: Deck;
  card: Card;
  region: Region;
  /** Cubes when the card lies on the table. */
  cubes?: Cubes;
  /** Extra line at the bottom (cost of a cube here, "selected"...). */
  note?: ReactNode;
  /** A full table: the region as its symbol beside the name, and no event text. */
  compact?: boolean;
}

/** One country card: region (colour, symbol, name), country, flag, command value, event, cubes. */
export function CardFace({ deck, card, region, cubes, note, compact = false }: CardFaceProps) {
  const { t } = useTranslation();
  const words = useGameWords();
  const style = regionStyle(region);
  const name = (
    <span className="card-name">
      {words.cardName(deck, card.id)}
      <Reconstructed status={card.status.name} />
    </span>
  );
  return (
    <span className={`card-face${compact ? ' compact' : ''}`} style={{ borderColor: style.colour }}>
      {compact ? (
        <span className="card-head" title={words.regionName(deck, region.id)}>
          <span className="region-symbol" style={{ background: style.colour }} aria-hidden="true">
            {style.symbol}
          </span>
          {name}
        </span>
      ) : (
        <>
          <span className="card-head">
            <RegionTag deck={deck} region={region} />
            <Reconstructed status={card.status.region} />
          </span>
          {name}
        </>
      )}
      <span className="card-meta">
        {card.flag ? (
          <span className="card-flag">
            <Flag side={card.flag} /> {words.side(card.flag)}
            <Reconstructed status={card.status.flag} />
          </span>
        ) : (
          <span className="card-flag">{t('board.starter')}</span>
        )}
        {card.command !== null && (
          <span className="card-command" title={t('board.commandValue')}>
            {t('board.command', { value: card.command })}
            <Reconstructed status={card.status.command} />
          </span>
        )}
      </span>
      {!compact && <EventText deck={deck} card={card} />}
      {cubes && <CubeRow cubes={cubes} />}
      {note && <span className="card-note">{note}</span>}
    </span>
  );
}

export function CardBack({ label }: { label?: string }) {
  const { t } = useTranslation();
  return <span className="card-back" role="img" aria-label={label ?? t('board.hiddenCard')} />;
}
