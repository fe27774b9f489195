import {
  type CardId,
  HIDDEN_CARD,
  indexDeck,
  type Seat,
  type Side,
  type State,
} from '@iron-curtain/game';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { CardBack, CardFace } from './CardFace.tsx';
import { Flag } from './Flag.tsx';
import { useRules } from './rules.tsx';

interface OwnHandProps {
  view: State;
  seat: Seat;
  playable: ReadonlySet<CardId>;
  selected: CardId | null;
  disabled: boolean;
  onSelect: (cardId: CardId) => void;
  /** A card pointed at (hovered or focused), or null when the pointer leaves: the table shows where it may go. */
  onPreview?: (cardId: CardId | null) => void;
}

/** The seat's own cards, face up; the playable ones are buttons. */
export function OwnHand({
  view,
  seat,
  playable,
  selected,
  disabled,
  onSelect,
  onPreview,
}: OwnHandProps) {
  const { t } = useTranslation();
  const rules = useRules();
  const deck = indexDeck(rules.deck);
  const cards = view.hands[seat].filter((id) => id !== HIDDEN_CARD);
  return (
    <section className="panel hand own-hand" aria-label={t('board.yourHandLabel')}>
      <h2>{t('board.yourHand', { count: cards.length })}</h2>
      {/* The hand scrolls sideways when it is wider than the dock: reachable by keyboard even while no card is playable. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling area must be reachable by keyboard */}
      <div className="hand-cards" tabIndex={0}>
        {cards.map((id) => {
          const card = deck.card(id);
          return (
            <HandCard
              key={id}
              cardId={id}
              playable={playable.has(id)}
              selected={selected === id}
              disabled={disabled}
              onSelect={() => onSelect(id)}
              onPreview={onPreview}
            >
              <CardFace deck={rules.deck} card={card} region={deck.region(card.region)} />
            </HandCard>
          );
        })}
        {cards.length === 0 && <p className="empty">{t('board.noCards')}</p>}
      </div>
    </section>
  );
}

interface HandCardProps {
  cardId: CardId;
  playable: boolean;
  selected: boolean;
  disabled: boolean;
  onSelect: () => void;
  onPreview: ((cardId: CardId | null) => void) | undefined;
  children: ReactNode;
}

function HandCard({
  cardId,
  playable,
  selected,
  disabled,
  onSelect,
  onPreview,
  children,
}: HandCardProps) {
  if (!playable) {
    return (
      <div className="hand-card" data-card={cardId}>
        {children}
      </div>
    );
  }
  return (
    <button
      type="button"
      className={`hand-card playable${selected ? ' selected' : ''}`}
      data-card={cardId}
      data-choice="hand"
      aria-pressed={selected}
      disabled={disabled}
      onClick={onSelect}
      onPointerEnter={(event) => event.pointerType === 'mouse' && onPreview?.(cardId)}
      onPointerLeave={() => onPreview?.(null)}
      onFocus={() => onPreview?.(cardId)}
      onBlur={() => onPreview?.(null)}
    >
      {children}
    </button>
  );
}

/** A hand the viewer may not see: card backs and how many. */
export function HiddenHand({
  side,
  count,
  name,
  quiet = false,
}: {
  side: Side;
  count: number;
  name: string;
  /** The backs alone on screen (a player's panel counts them): the sentence for screen readers. */
  quiet?: boolean;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  return (
    <div className="hidden-hand" data-hidden-hand={side}>
      <span className={quiet ? 'hidden-hand-label sr-only' : 'hidden-hand-label'}>
        <Flag side={side} /> {t('board.hiddenHand', { side: words.side(side), name, count })}
      </span>
      <span className="backs" aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: backs are identical and only counted
          <CardBack key={i} />
        ))}
      </span>
    </div>
  );
}
