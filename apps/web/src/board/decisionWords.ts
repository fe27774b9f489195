import { type Decision, indexDeck, opponentOf, type State } from '@iron-curtain/game';

/** What the decider is deciding, in words, e.g. "play a card". */
export function decisionWords(view: State, decision: Decision): string {
  const name = (id: string) => indexDeck(view.deck).card(id).name;
  switch (decision.kind) {
    case 'chooseFirstPlayer':
      return `choose who goes first in round ${view.round}`;
    case 'playCard':
      return 'play a card';
    case 'chooseAction':
      return `choose Event or Command for ${name(decision.cardId)}`;
    case 'decideEvent':
      return `decide whether to resolve the event of ${name(decision.cardId)}`;
    case 'placeCubes':
      return `${decision.mode === 'command' ? 'Command' : 'Infiltrate'} with ${name(decision.source)}: ${decision.remaining} left to place`;
    case 'removeCubes':
      return `remove ${opponentOf(decision.side)} cubes (${name(decision.source)}): up to ${decision.remaining} left`;
    case 'moveCard':
      return `move ${name(decision.cardId)} (event of ${name(decision.source)})`;
  }
}
