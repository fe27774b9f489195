import {
  type CardId,
  type Cell,
  indexDeck,
  type Move,
  type RulesContext,
  type Side,
  type State,
} from '@iron-curtain/game';

/** A move in the log's vocabulary, as data: the CLI puts it in English, the web client translates it. */
export type MoveWords =
  | { kind: 'first'; side: Side }
  | { kind: 'play'; card: CardId; x: number; y: number }
  | { kind: 'event'; card: CardId }
  | { kind: 'command'; card: CardId; value: number }
  | { kind: 'useEvent'; card: CardId }
  | { kind: 'declineEvent'; card: CardId }
  | { kind: 'place'; card: CardId; from: CardId | null }
  | { kind: 'remove'; card: CardId }
  | { kind: 'move'; card: CardId; x: number; y: number }
  | { kind: 'finish' };

/** What `move` does in the position `before` (whose decision it answers). */
export function moveWords(rules: RulesContext, before: State, move: Move): MoveWords {
  const [a, b] = move.args;
  const d = before.decision;
  const decided = d && 'cardId' in d ? d.cardId : '';
  switch (move.move) {
    case 'chooseFirstPlayer':
      return { kind: 'first', side: a as Side };
    case 'playCard':
      return { kind: 'play', card: a as CardId, x: (b as Cell).x, y: (b as Cell).y };
    case 'chooseAction':
      return a === 'event'
        ? { kind: 'event', card: decided }
        : {
            kind: 'command',
            card: decided,
            value: indexDeck(rules.deck).card(decided).command ?? 0,
          };
    case 'decideEvent':
      return { kind: a ? 'useEvent' : 'declineEvent', card: decided };
    case 'placeCube':
      return { kind: 'place', card: a as CardId, from: (b as CardId | undefined) ?? null };
    case 'removeCube':
      return { kind: 'remove', card: a as CardId };
    case 'moveCard':
      return { kind: 'move', card: a as CardId, x: (b as Cell).x, y: (b as Cell).y };
    case 'finishStep':
      return { kind: 'finish' };
  }
}

/** MoveWords in English, for the CLI and tests. */
export function englishMoveWords(rules: RulesContext, words: MoveWords): string {
  const name = (id: CardId) => indexDeck(rules.deck).card(id).name;
  switch (words.kind) {
    case 'first':
      return `the ${words.side} to go first`;
    case 'play':
      return `${name(words.card)} at (${words.x}, ${words.y})`;
    case 'event':
      return `the event of ${name(words.card)}`;
    case 'command':
      return `Command ${words.value} with ${name(words.card)}`;
    case 'useEvent':
      return `resolving the event of ${name(words.card)}`;
    case 'declineEvent':
      return `declining the event of ${name(words.card)}`;
    case 'place':
      return `a cube on ${name(words.card)}${words.from ? ` (taken from ${name(words.from)})` : ''}`;
    case 'remove':
      return `removing a cube from ${name(words.card)}`;
    case 'move':
      return `moving ${name(words.card)} to (${words.x}, ${words.y})`;
    case 'finish':
      return 'ending the step';
  }
}
