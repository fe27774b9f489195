import {
  type Card,
  type Cubes,
  controlledBy,
  dominatedBy,
  type FieldStatus,
  type Region,
} from '@iron-curtain/game';
import type { ReactNode } from 'react';
import { Flag } from './Flag.tsx';
import { regionStyle } from './regionStyle.ts';

/** Marks a field of the default deck that is a reconstruction, not the printed card. */
export function Reconstructed({ status }: { status: FieldStatus }) {
  if (status !== 'reconstructed') return null;
  return (
    <span className="recon" title="Reconstructed: not taken from the printed card">
      <span aria-hidden="true">◇</span>
      <span className="sr-only"> (reconstructed)</span>
    </span>
  );
}

export function RegionTag({ region }: { region: Region }) {
  const style = regionStyle(region);
  return (
    <span className="region-tag" style={{ background: style.colour }}>
      <span aria-hidden="true">{style.symbol}</span> {region.name}
    </span>
  );
}

function CubeRow({ cubes }: { cubes: Cubes }) {
  const control = controlledBy(cubes);
  const dominant = dominatedBy(cubes);
  const status = control
    ? `${control} controls`
    : dominant
      ? `${dominant} dominates`
      : cubes.US + cubes.USSR > 0
        ? 'tied'
        : 'no cubes';
  return (
    <span className="cubes">
      <span className="cube-count us" title="US cubes">
        <span className="cube us" aria-hidden="true" /> US {cubes.US}
      </span>
      <span className="cube-count ussr" title="USSR cubes">
        <span className="cube ussr" aria-hidden="true" /> USSR {cubes.USSR}
      </span>
      <span className={`cube-status ${control ? 'control' : dominant ? 'dominate' : ''}`}>
        {status}
      </span>
    </span>
  );
}

/** The event text as written in the deck's effect language, one step a line. */
function EventText({ card }: { card: Card }) {
  if (card.eventText.length === 0) return <span className="event none">No event</span>;
  return (
    <span className="event">
      {card.eventText.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a card's event text never changes order
        <span key={i} className="event-line">
          {line.charAt(0).toUpperCase() + line.slice(1)}
          {i === card.eventText.length - 1 ? <Reconstructed status={card.status.event} /> : ';'}
        </span>
      ))}
    </span>
  );
}

interface CardFaceProps {
  card: Card;
  region: Region;
  /** Cubes when the card lies on the table. */
  cubes?: Cubes;
  /** Extra line at the bottom (cost of a cube here, "selected"...). */
  note?: ReactNode;
}

/** One country card: region (colour, symbol, name), country, flag, command value, event, cubes. */
export function CardFace({ card, region, cubes, note }: CardFaceProps) {
  const style = regionStyle(region);
  return (
    <span className="card-face" style={{ borderColor: style.colour }}>
      <span className="card-head">
        <RegionTag region={region} />
        <Reconstructed status={card.status.region} />
      </span>
      <span className="card-name">
        {card.name}
        <Reconstructed status={card.status.name} />
      </span>
      <span className="card-meta">
        {card.flag ? (
          <span className="card-flag">
            <Flag side={card.flag} /> {card.flag}
            <Reconstructed status={card.status.flag} />
          </span>
        ) : (
          <span className="card-flag">Starter</span>
        )}
        {card.command !== null && (
          <span className="card-command" title="Command value">
            Cmd {card.command}
            <Reconstructed status={card.status.command} />
          </span>
        )}
      </span>
      <EventText card={card} />
      {cubes && <CubeRow cubes={cubes} />}
      {note && <span className="card-note">{note}</span>}
    </span>
  );
}

export function CardBack({ label }: { label?: string }) {
  return <span className="card-back" role="img" aria-label={label ?? 'hidden card'} />;
}
