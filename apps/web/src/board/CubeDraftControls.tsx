import type { CardId, PlaceCubesDecision } from '@iron-curtain/game';
import { useTranslation } from 'react-i18next';
import { useGameWords } from '../i18n/gameWords.ts';
import type { Choices } from './choices.ts';
import type { CubeDraft } from './cubeDraft.ts';
import { useRules } from './rules.tsx';

/**
 * The dock of a Command or Infiltrate step: what is left to spend, the cubes drafted on the
 * table (each can be taken back), and one confirm that sends them.
 */
export function CubeDraftControls({
  decision,
  draft,
  choices,
  blocked,
  onConfirm,
}: {
  decision: PlaceCubesDecision;
  draft: CubeDraft;
  choices: Choices;
  blocked: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const words = useGameWords();
  const rules = useRules();
  const name = (id: CardId) => words.cardName(rules.deck, id);
  const doubled = [...choices.place.values()].some((target) => target.cost === 2);
  const count = draft.cubes.length;
  const cards = Object.entries(draft.drafted);
  return (
    <div className="choices cube-draft" data-draft-left={draft.left} data-draft-cubes={count}>
      <p>
        <span className="draft-left">
          {t(decision.mode === 'command' ? 'cubeDraft.pointsLeft' : 'cubeDraft.cubesLeft', {
            left: draft.left,
            total: draft.total,
          })}
        </span>{' '}
        {draft.complete
          ? t('cubeDraft.allSpent')
          : `${t('cubeDraft.pick')}${doubled ? t('prompt.doubled') : ''}${
              decision.maxPerCard !== null
                ? t('prompt.maxPerCard', { count: decision.maxPerCard })
                : ''
            }`}
      </p>
      {cards.length > 0 && (
        <ul className="draft-cubes" aria-label={t('cubeDraft.drafted')}>
          {cards.map(([cardId, n]) => (
            <li key={cardId}>
              <button
                type="button"
                className="secondary draft-chip"
                data-take-back={cardId}
                disabled={blocked}
                aria-label={t('cubeDraft.takeBackFrom', { card: name(cardId) })}
                title={t('cubeDraft.takeBackFrom', { card: name(cardId) })}
                onClick={() => draft.takeBack(cardId)}
              >
                {name(cardId)} +{n} <span aria-hidden="true">✕</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {count > 0 && (
        <button
          type="button"
          className="secondary"
          data-take-back="last"
          disabled={blocked}
          onClick={() => draft.takeBack()}
        >
          {t('cubeDraft.takeBackLast')}
        </button>
      )}
      <button
        type="button"
        className={count > 0 ? 'primary' : 'secondary'}
        data-choice="prompt"
        data-confirm-cubes={count}
        disabled={blocked}
        onClick={onConfirm}
      >
        {count > 0 ? t('cubeDraft.confirm', { n: count }) : t('cubeDraft.none')}
      </button>
    </div>
  );
}
