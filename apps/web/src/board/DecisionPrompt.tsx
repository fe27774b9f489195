import {
  type CardId,
  indexDeck,
  type MoveName,
  opponentOf,
  type Seat,
  type State,
} from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import { CubeDraftControls } from './CubeDraftControls.tsx';
import type { Choices } from './choices.ts';
import type { CubeDraft } from './cubeDraft.ts';
import { useRules } from './rules.tsx';

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
  /** The cubes of this seat's placement step, drafted before they are sent. */
  draft?: CubeDraft;
  /** Sends the drafted cubes. */
  onConfirmDraft?: () => void;
}

/** Whose turn it is and what they decide; for the deciding seat, the controls of that decision. */
export function DecisionPrompt(props: DecisionPromptProps) {
  const rules = useRules();
  const { view, seat, names } = props;
  const { t } = useTranslation();
  const words = useGameWords();
  const d = view.decision;
  if (!d) return null;
  const side = view.sides[d.seat];
  const mine = seat === d.seat;
  const what = words.decision(rules.deck, view, d);
  const heading = mine
    ? t('prompt.yourTurn', { side: words.side(side), what })
    : t(seat === null ? 'prompt.theyMust' : 'prompt.waiting', {
        side: seat === null ? words.TheSide(side) : words.theSide(side),
        name: names[d.seat],
        what,
      });
  return (
    <section
      className={`panel prompt${mine ? ' mine' : ''}`}
      aria-label={t('prompt.label')}
      data-decision={d.kind}
      data-decider={d.seat}
    >
      <p className="prompt-heading">
        {t('prompt.turnLine', { round: view.round, turn: Math.min(view.plays + 1, 8) })} {heading}
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
  marks = {},
}: {
  label: string;
  onClick: () => void;
  disabled: boolean;
  kind?: 'primary' | 'secondary';
  /** Data attributes naming the choice (`data-action`, `data-use`), for a hint to point at. */
  marks?: Record<`data-${string}`, string>;
}) {
  return (
    <button
      type="button"
      className={kind}
      data-choice="prompt"
      disabled={disabled}
      onClick={onClick}
      {...marks}
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
  draft,
  onConfirmDraft,
}: DecisionPromptProps) {
  const { t } = useTranslation();
  const words = useGameWords();
  const rules = useRules();
  const d = view.decision;
  const deck = indexDeck(rules.deck);
  const name = (id: CardId) => words.cardName(rules.deck, id);
  const event = (id: CardId) => words.eventText(rules.deck, deck.card(id));
  if (!d) return null;
  switch (d.kind) {
    case 'chooseFirstPlayer':
      return (
        <div className="choices">
          {choices.firstPlayer.map((side) => (
            <Choice
              key={side}
              label={t('prompt.goesFirst', { side: words.TheSide(side) })}
              disabled={blocked}
              onClick={() => onMove('chooseFirstPlayer', [side])}
            />
          ))}
        </div>
      );
    case 'playCard':
      return selectedCard ? (
        <div className="choices">
          <p>{t('prompt.chooseCell', { card: name(selectedCard) })}</p>
          <button type="button" className="secondary" onClick={onCancel}>
            {t('prompt.otherCard')}
          </button>
        </div>
      ) : (
        <p>{t('prompt.chooseHand')}</p>
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
                  ? t('prompt.resolveWith', { event: event(d.cardId) })
                  : t('prompt.commandUpTo', { count: command })
              }
              disabled={blocked}
              marks={{ 'data-action': action }}
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
            {t('prompt.yourFlagPlayed', {
              side: words.TheSide(opponentOf(view.sides[d.seat])),
              card: name(d.cardId),
              event: event(d.cardId),
            })}
          </p>
          {choices.decideEvent.map((use) => (
            <Choice
              key={String(use)}
              label={use ? t('prompt.resolve') : t('prompt.decline')}
              kind={use ? 'primary' : 'secondary'}
              disabled={blocked}
              marks={{ 'data-use': String(use) }}
              onClick={() => onMove('decideEvent', [use])}
            />
          ))}
        </div>
      );
    case 'placeCubes': {
      if (pickFrom) {
        return (
          <div className="choices">
            <p>{t('prompt.supplyEmpty', { card: name(pickFrom.target) })}</p>
            <button type="button" className="secondary" onClick={onCancel}>
              {t('prompt.otherTarget')}
            </button>
          </div>
        );
      }
      if (draft?.active && onConfirmDraft) {
        return (
          <CubeDraftControls
            decision={d}
            draft={draft}
            choices={choices}
            blocked={blocked}
            onConfirm={onConfirmDraft}
          />
        );
      }
      const doubled = [...choices.place.values()].some((t) => t.cost === 2);
      return (
        <div className="choices">
          <p>
            {t(d.mode === 'command' ? 'prompt.commandLeft' : 'prompt.infiltrateLeft', {
              count: d.remaining,
            })}
            {doubled && t('prompt.doubled')}
            {d.maxPerCard !== null && t('prompt.maxPerCard', { count: d.maxPerCard })}
          </p>
          {choices.finish && (
            <Choice
              label={t('prompt.finishPlacing')}
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
            {t('prompt.removeUpTo', { count: d.remaining, side: words.side(opponentOf(d.side)) })}
          </p>
          {choices.finish && (
            <Choice
              label={t('prompt.finishRemoving')}
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
          <p>{t('prompt.chooseMoveCell', { card: name(d.cardId) })}</p>
          {choices.finish && (
            <Choice
              label={t('prompt.leave', { card: name(d.cardId) })}
              kind="secondary"
              disabled={blocked}
              onClick={() => onMove('finishStep', [])}
            />
          )}
        </div>
      );
  }
}
