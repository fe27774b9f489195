import {
  type CardId,
  indexDeck,
  type MoveName,
  opponentOf,
  type Seat,
  type State,
} from '@iron-curtain/game';
import type { Choices } from './choices.ts';
import { decisionWords } from './decisionWords.ts';

export interface DecisionPromptProps {
  view: State;
  seat: Seat | null;
  names: Record<Seat, string>;
  choices: Choices;
  selectedCard: CardId | null;
  /** Set when a cube target was chosen with an empty supply: where to take a cube back from. */
  pickFrom: { target: CardId; from: CardId[] } | null;
  /** Controls are disabled: a move is on its way or the connection is down. */
  blocked: boolean;
  /** Why they are, in words. */
  notice: string | null;
  onMove: (move: MoveName, args: unknown[]) => void;
  onCancel: () => void;
}

/** Whose turn it is and what they decide; for the deciding seat, the controls of that decision. */
export function DecisionPrompt(props: DecisionPromptProps) {
  const { view, seat, names } = props;
  const d = view.decision;
  if (!d) return null;
  const side = view.sides[d.seat];
  const mine = seat === d.seat;
  const heading = mine
    ? `Your turn (${side}): ${decisionWords(view, d)}.`
    : `${seat === null ? '' : 'Waiting: '}the ${side} (${names[d.seat]}) must ${decisionWords(view, d)}.`;
  return (
    <section
      className={`panel prompt${mine ? ' mine' : ''}`}
      aria-label="Decision"
      aria-live="polite"
      data-decision={d.kind}
      data-decider={d.seat}
    >
      <p className="prompt-heading">
        Round {view.round}, turn {Math.min(view.plays + 1, 8)} of 8. {heading}
      </p>
      {mine && <Controls {...props} />}
      {props.notice && <p className="pending">{props.notice}</p>}
    </section>
  );
}

function Choice({
  label,
  onClick,
  disabled,
  kind = 'primary',
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
  kind?: 'primary' | 'secondary';
}) {
  return (
    <button
      type="button"
      className={kind}
      data-choice="prompt"
      disabled={disabled}
      onClick={onClick}
    >
      {label}
    </button>
  );
}

function Controls({
  view,
  choices,
  selectedCard,
  pickFrom,
  blocked,
  onMove,
  onCancel,
}: DecisionPromptProps) {
  const d = view.decision;
  const deck = indexDeck(view.deck);
  const name = (id: CardId) => deck.card(id).name;
  if (!d) return null;
  switch (d.kind) {
    case 'chooseFirstPlayer':
      return (
        <div className="choices">
          {choices.firstPlayer.map((side) => (
            <Choice
              key={side}
              label={`The ${side} goes first`}
              disabled={blocked}
              onClick={() => onMove('chooseFirstPlayer', [side])}
            />
          ))}
        </div>
      );
    case 'playCard':
      return selectedCard ? (
        <div className="choices">
          <p>Choose a highlighted cell on the table for {name(selectedCard)}.</p>
          <button type="button" className="secondary" onClick={onCancel}>
            Choose another card
          </button>
        </div>
      ) : (
        <p>Choose a card from your hand; its legal cells light up on the table.</p>
      );
    case 'chooseAction': {
      const command = deck.card(d.cardId).command ?? 0;
      return (
        <div className="choices">
          {choices.action.map((action) => (
            <Choice
              key={action}
              label={
                action === 'event'
                  ? `Resolve the event: ${deck.card(d.cardId).eventText.join('; ')}`
                  : `Command: place up to ${command} cubes`
              }
              disabled={blocked}
              onClick={() => onMove('chooseAction', [action])}
            />
          ))}
        </div>
      );
    }
    case 'decideEvent':
      return (
        <div className="choices">
          <p>
            The {opponentOf(view.sides[d.seat])} played {name(d.cardId)}, which carries your flag.
            Its event: {deck.card(d.cardId).eventText.join('; ')}.
          </p>
          {choices.decideEvent.map((use) => (
            <Choice
              key={String(use)}
              label={use ? 'Resolve the event' : 'Decline the event'}
              kind={use ? 'primary' : 'secondary'}
              disabled={blocked}
              onClick={() => onMove('decideEvent', [use])}
            />
          ))}
        </div>
      );
    case 'placeCubes': {
      if (pickFrom) {
        return (
          <div className="choices">
            <p>
              Your supply is empty: choose a highlighted card to take one of your cubes back from,
              to place it on {name(pickFrom.target)}.
            </p>
            <button type="button" className="secondary" onClick={onCancel}>
              Choose another target
            </button>
          </div>
        );
      }
      const doubled = [...choices.place.values()].some((t) => t.cost === 2);
      return (
        <div className="choices">
          <p>
            {d.mode === 'command'
              ? `Command: ${d.remaining} left. Click a highlighted card to place one cube.`
              : `Infiltrate: ${d.remaining} left. Click a highlighted card to place one cube, anywhere it names.`}
            {doubled && ' A card the opponent controls costs 2 for 1 cube.'}
            {d.maxPerCard !== null && ` At most ${d.maxPerCard} per card.`}
          </p>
          {choices.finish && (
            <Choice
              label="Finish placing"
              kind="secondary"
              disabled={blocked}
              onClick={() => onMove('finishStep', [])}
            />
          )}
        </div>
      );
    }
    case 'removeCubes':
      return (
        <div className="choices">
          <p>
            Remove up to {d.remaining} {opponentOf(d.side)} cubes: click a highlighted card to
            remove one.
          </p>
          {choices.finish && (
            <Choice
              label="Finish removing"
              kind="secondary"
              disabled={blocked}
              onClick={() => onMove('finishStep', [])}
            />
          )}
        </div>
      );
    case 'moveCard':
      return (
        <div className="choices">
          <p>Choose a highlighted cell to move {name(d.cardId)} to, with its cubes.</p>
          {choices.finish && (
            <Choice
              label={`Leave ${name(d.cardId)} where it is`}
              kind="secondary"
              disabled={blocked}
              onClick={() => onMove('finishStep', [])}
            />
          )}
        </div>
      );
  }
}
