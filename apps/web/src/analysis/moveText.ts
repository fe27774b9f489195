import type { Beside, MoveWords } from '@iron-curtain/bots';
import type { Deck } from '@iron-curtain/game';
import type { TableMarks } from '../board/Board.tsx';
import type { GameWords } from '../i18n/gameWords.ts';

/**
 * A move in the current language, in the log's vocabulary ("Command 3 with Cuba"); a cell is
 * named by the cards beside it ("Hungary below Poland"), never by its coordinates.
 */
export function moveText(words: GameWords, deck: Deck, move: MoveWords): string {
  const t = words.t;
  const card = (id: string) => words.cardName(deck, id);
  const where = (beside: Beside[]) =>
    words.list(beside.map((b) => t(`analysisWords.${b.direction}`, { card: card(b.card) })));
  const cube = ({ card: on, from }: { card: string; from: string | null }) =>
    from
      ? t('analysis.words.placeFrom', { card: card(on), from: card(from) })
      : t('analysis.words.place', { card: card(on) });
  switch (move.kind) {
    case 'first':
      return t('analysis.words.first', { side: words.theSide(move.side) });
    case 'play':
      return t('analysisWords.play', { card: card(move.card), where: where(move.beside) });
    case 'event':
      return t('analysis.words.event', { card: card(move.card) });
    case 'command':
      return t('analysis.words.command', { card: card(move.card), value: move.value });
    case 'useEvent':
      return t('analysis.words.useEvent', { card: card(move.card) });
    case 'declineEvent':
      return t('analysis.words.declineEvent', { card: card(move.card) });
    case 'place':
      return cube(move);
    case 'placeAll':
      return words.list(move.cubes.map(cube));
    case 'remove':
      return t('analysis.words.remove', { card: card(move.card) });
    case 'move':
      return t('analysisWords.move', { card: card(move.card), where: where(move.beside) });
    case 'finish':
      return t('analysis.words.finish');
  }
}

/** Where a move happens on the table: the cell a card goes to, or the card it acts on. */
export function moveMarks(move: MoveWords): TableMarks {
  switch (move.kind) {
    case 'play':
      return { cells: [{ x: move.x, y: move.y }], cards: [] };
    case 'move':
      return { cells: [{ x: move.x, y: move.y }], cards: [move.card] };
    case 'first':
    case 'finish':
      return { cells: [], cards: [] };
    case 'placeAll':
      return { cells: [], cards: [...new Set(move.cubes.map((c) => c.card))] };
    default:
      return { cells: [], cards: [move.card] };
  }
}
