import type { Deck } from './deck/deck.ts';
import { indexDeck } from './deck-index.ts';
import type { LogEntry, RegionScore, Side } from './types.ts';

const towards = (marker: number) =>
  marker === 0 ? 'at the centre' : `${Math.abs(marker)} towards the ${marker > 0 ? 'US' : 'USSR'}`;

function scoreWords(deck: Deck, score: RegionScore): string {
  const { region } = indexDeck(deck);
  const name = region(score.region).name;
  const bonus = score.bonusTo
    ? `; bonus ${region(score.region).bonus} to the ${score.bonusTo}`
    : '; no bonus';
  return `${name} scores: US ${score.points.US}, USSR ${score.points.USSR}${bonus}`;
}

/** One log entry in English words. Entries hold only public information. */
export function describeLogEntry(entry: LogEntry, deck: Deck): string {
  const name = (id: string) => indexDeck(deck).card(id).name;
  const who = (side: Side) => `The ${side}`;
  switch (entry.type) {
    case 'firstPlayer':
      return entry.chooser === entry.first
        ? `${who(entry.chooser)} chose to go first in round ${entry.round}.`
        : `${who(entry.chooser)} chose the ${entry.first} to go first in round ${entry.round}.`;
    case 'play':
      return `${who(entry.side)} played ${name(entry.cardId)} at (${entry.x}, ${entry.y}).`;
    case 'action':
      return `${who(entry.side)} used ${name(entry.cardId)} for its ${entry.choice === 'event' ? 'event' : 'command value'}.`;
    case 'eventDecision':
      return `${who(entry.side)} ${entry.use ? 'resolved' : 'declined'} the event of ${name(entry.cardId)}.`;
    case 'gain':
      return `${who(entry.side)} gained ${entry.amount} IP; the marker is ${towards(entry.marker)}.`;
    case 'place': {
      const from = entry.from ? ` (taken back from ${name(entry.from)})` : '';
      const verb = entry.mode === 'infiltrate' ? 'infiltrated' : 'placed';
      const cost = entry.cost === 2 ? ', paying 2 for it' : '';
      return `${who(entry.side)} ${verb} a cube on ${name(entry.cardId)}${from}${cost}.`;
    }
    case 'remove':
      return `${who(entry.side)} removed a cube of the ${entry.side === 'US' ? 'USSR' : 'US'} from ${name(entry.cardId)}.`;
    case 'move':
      return `${who(entry.side)} moved ${name(entry.cardId)} to (${entry.x}, ${entry.y}).`;
    case 'finishStep':
      return `${who(entry.side)} ended the step.`;
    case 'noTarget':
      return `${who(entry.side)} had no legal target to ${entry.op} with ${name(entry.cardId)}.`;
    case 'regionScored':
      return `${entry.final ? 'Final scoring: ' : ''}${scoreWords(deck, entry.score)}. The marker is ${towards(entry.marker)}.`;
    case 'aftermathSetAside':
      return 'Round 1 is over: each player set a card aside face down on the aftermath pile.';
    case 'roundStarted':
      return `Round ${entry.round} begins: each player takes 4 cards from the reserve.`;
    case 'aftermathRevealed': {
      const cards = entry.score.cards.map(name).join(' and ');
      return `Aftermath: ${cards} revealed (US ${entry.score.sums.US}, USSR ${entry.score.sums.USSR}). The marker is ${towards(entry.marker)}.`;
    }
    case 'gameOver':
      return `The ${entry.result.winnerSide} wins ${entry.result.reason === 'track' ? 'by reaching its flag on the track' : 'after final scoring'}.`;
  }
}
