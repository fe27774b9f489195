import type { MoveWords } from '@iron-curtain/bots';
import type { Deck } from '@iron-curtain/game';
import type { GameWords } from '../i18n/gameWords.ts';

/** A move in the current language, in the log's vocabulary ("Command 3 with Cuba"). */
export function moveText(words: GameWords, deck: Deck, move: MoveWords): string {
  const t = words.t;
  const card = (id: string) => words.cardName(deck, id);
  switch (move.kind) {
    case 'first':
      return t('analysis.words.first', { side: words.theSide(move.side) });
    case 'play':
      return t('analysis.words.play', { card: card(move.card), x: move.x, y: move.y });
    case 'event':
      return t('analysis.words.event', { card: card(move.card) });
    case 'command':
      return t('analysis.words.command', { card: card(move.card), value: move.value });
    case 'useEvent':
      return t('analysis.words.useEvent', { card: card(move.card) });
    case 'declineEvent':
      return t('analysis.words.declineEvent', { card: card(move.card) });
    case 'place':
      return move.from
        ? t('analysis.words.placeFrom', { card: card(move.card), from: card(move.from) })
        : t('analysis.words.place', { card: card(move.card) });
    case 'remove':
      return t('analysis.words.remove', { card: card(move.card) });
    case 'move':
      return t('analysis.words.move', { card: card(move.card), x: move.x, y: move.y });
    case 'finish':
      return t('analysis.words.finish');
  }
}
