import {
  type Card,
  type Decision,
  type Deck,
  type EffectStep,
  indexDeck,
  type LogEntry,
  opponentOf,
  type RegionScore,
  type Side,
  type State,
  type TargetSet,
} from '@iron-curtain/game';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { EnglishResources } from './en.ts';

/**
 * Whether a deck's name for a card or region is the one we translate: the English text of
 * that id (English is always loaded, as every language's fallback). An owner's corrected
 * name has no translation and is shown as written.
 */
type CardKey = `cards.${keyof EnglishResources['cards'] & string}`;
type RegionKey = `regions.${keyof EnglishResources['regions'] & string}`;

/** Whether `key` names a text of ours for this name: then it is a key `t()` knows. */
const translatable = <Key extends string>(t: TFunction, key: string, name: string): key is Key =>
  withoutSoftHyphens(t(key, { lng: 'en', defaultValue: '' })) === name;

const SOFT_HYPHEN = /\u00AD/g;

/** A card on the table, as far as naming its place needs. */
type Placed = { cardId: string; x: number; y: number };

/** The text without its soft hyphens (U+00AD), which only mark where a long word may break. */
export const withoutSoftHyphens = (text: string): string => text.replace(SOFT_HYPHEN, '');

/**
 * The game's words in the current language, built from the engine's structured data:
 * names, event texts (from each card's parsed effects) and log entries. A deck supplied by an
 * owner keeps its own names for the cards and regions we have no translation of.
 */
export class GameWords {
  constructor(readonly t: TFunction) {}

  /**
   * Words already looked up, per deck (names, places, log lines): a table asks for every card's
   * and region's name and every log line on every move. An instance lives for one language and
   * is shared (useGameWords).
   */
  private readonly names = new WeakMap<Deck, Map<string, string>>();

  private named(deck: Deck, key: string, look: () => string): string {
    let known = this.names.get(deck);
    if (!known) {
      known = new Map();
      this.names.set(deck, known);
    }
    let name = known.get(key);
    if (name === undefined) {
      name = look();
      known.set(key, name);
    }
    return name;
  }

  side = (side: Side): string => this.t(`sides.${side}`);
  /** "the US" / "die USA": a side inside a sentence. */
  theSide = (side: Side): string => this.t(`sides.the_${side}`);
  /** "The US" / "Die USA": a side opening a sentence. */
  TheSide = (side: Side): string => this.t(`sides.The_${side}`);

  cardName = (deck: Deck, id: string): string =>
    this.named(deck, `cards.${id}`, () => {
      const { name } = indexDeck(deck).card(id);
      const key = `cards.${id}`;
      return translatable<CardKey>(this.t, key, name) ? this.t(key) : name;
    });

  /** A region's name as plain text: for sentences, labels, the log and comparisons. */
  regionName = (deck: Deck, id: string): string =>
    withoutSoftHyphens(this.regionBandName(deck, id));

  /**
   * A region's name with its soft hyphens, for the narrow card band only: Chromium on Linux has
   * no hyphenation dictionaries, so a long word ("Mittelamerika") would otherwise break at
   * whichever letter reaches the edge.
   */
  regionBandName = (deck: Deck, id: string): string =>
    this.named(deck, `regions.${id}`, () => {
      const { name } = indexDeck(deck).region(id);
      const key = `regions.${id}`;
      return translatable<RegionKey>(this.t, key, name) ? this.t(key) : name;
    });

  list = (items: string[]): string =>
    items.length <= 1
      ? (items[0] ?? '')
      : `${items.slice(0, -1).join(this.t('end.listSep'))}${this.t('end.and')}${items.at(-1)}`;

  targets = (deck: Deck, targets: TargetSet): string => {
    switch (targets.kind) {
      case 'any':
        return this.t('effects.any');
      case 'region':
        return this.t('effects.region', { region: this.regionName(deck, targets.region) });
      case 'cards':
        return this.t('effects.cards', {
          cards: this.list(targets.cards.map((id) => this.cardName(deck, id))),
        });
      case 'adjacent':
        return this.t(targets.includeSelf ? 'effects.adjacentSelf' : 'effects.adjacent', {
          card: this.cardName(deck, targets.card),
        });
    }
  };

  effect = (deck: Deck, step: EffectStep): string => {
    switch (step.op) {
      case 'gain':
        return this.t('effects.gain', { count: step.amount });
      case 'command':
      case 'remove':
        return this.t(`effects.${step.op}`, {
          count: step.amount,
          targets: this.targets(deck, step.targets),
        });
      case 'infiltrate':
        return step.maxPerCard === null
          ? this.t('effects.infiltrate', {
              count: step.amount,
              targets: this.targets(deck, step.targets),
            })
          : this.t('effects.infiltrateMax', {
              count: step.amount,
              targets: this.targets(deck, step.targets),
              max: step.maxPerCard,
            });
      case 'move':
        return this.t('effects.move', { card: this.cardName(deck, step.card) });
    }
  };

  /** A card's event, one translated line per step of its parsed effects. */
  eventLines = (deck: Deck, card: Card): string[] => card.effects.map((s) => this.effect(deck, s));

  eventText = (deck: Deck, card: Card): string =>
    this.eventLines(deck, card).join(this.t('effects.separator'));

  marker = (marker: number): string =>
    marker === 0
      ? this.t('board.markerCentre')
      : this.t('board.markerTowards', {
          count: Math.abs(marker),
          side: this.theSide(marker > 0 ? 'US' : 'USSR'),
        });

  /** What the decider is deciding, e.g. "play a card". */
  decision = (deck: Deck, view: State, d: Decision): string => {
    const name = (id: string) => this.cardName(deck, id);
    switch (d.kind) {
      case 'chooseFirstPlayer':
        return this.t('prompt.chooseFirst', { round: view.round });
      case 'playCard':
        return this.t('prompt.playCard');
      case 'chooseAction':
        return this.t('prompt.chooseAction', { card: name(d.cardId) });
      case 'decideEvent':
        return this.t('prompt.decideEvent', { card: name(d.cardId) });
      case 'placeCubes':
        return this.t(d.mode === 'command' ? 'prompt.placeCommand' : 'prompt.placeInfiltrate', {
          card: name(d.source),
          count: d.remaining,
        });
      case 'removeCubes':
        return this.t('prompt.removeCubes', {
          side: this.side(opponentOf(d.side)),
          card: name(d.source),
          count: d.remaining,
        });
      case 'moveCard':
        return this.t('prompt.moveCard', { card: name(d.cardId), source: name(d.source) });
    }
  };

  private scoreWords = (deck: Deck, score: RegionScore, marker: number): string =>
    this.t('log.regionScored', {
      region: this.regionName(deck, score.region),
      us: score.points.US,
      ussr: score.points.USSR,
      bonus: score.bonusTo
        ? this.t('log.bonusTo', {
            count: indexDeck(deck).region(score.region).bonus,
            side: this.theSide(score.bonusTo),
          })
        : this.t('log.noBonus'),
      where: this.marker(marker),
    });

  /**
   * Where a cell lies (a card's, or one a card may go to), as players name it: by the cards
   * beside it on `table` ("below Poland"), at most two, never by its coordinates; empty when no
   * card is beside it (or no table is known). `except` is not named: the card on the cell, or
   * the one being moved from beside it.
   */
  beside = (
    deck: Deck,
    table: readonly Placed[],
    placed: Pick<Placed, 'x' | 'y'>,
    except?: string,
  ): string => {
    const near = neighbours(table, placed, except);
    if (near.length === 0) return '';
    // A live table asks this for every card on every move; the words only change with the cards.
    return this.named(deck, `beside ${JSON.stringify(near)}`, () =>
      this.list(
        near.map(({ direction, cardId }) =>
          this.t(`analysisWords.${direction}`, { card: this.cardName(deck, cardId) }),
        ),
      ),
    );
  };

  /**
   * One log entry in words, from its fields (never from the engine's English text). A card
   * played or moved is placed by its neighbours on `table` (the table as it is now).
   */
  logLine = (entry: LogEntry, deck: Deck, table: readonly Placed[] = []): string => {
    // The whole log is in words again on every move: an entry's line is kept, by its fields and,
    // for a card played or moved, the cards beside it now.
    const near =
      entry.type === 'play' || entry.type === 'move' ? neighbours(table, entry, entry.cardId) : [];
    return this.named(deck, `log ${JSON.stringify([entry, near])}`, () =>
      this.logWords(entry, deck, table),
    );
  };

  private logWords = (entry: LogEntry, deck: Deck, table: readonly Placed[]): string => {
    const t = this.t;
    const card = (id: string) => this.cardName(deck, id);
    switch (entry.type) {
      case 'firstPlayer':
        return entry.chooser === entry.first
          ? t('log.firstPlayerSelf', { chooser: this.TheSide(entry.chooser), round: entry.round })
          : t('log.firstPlayerOther', {
              chooser: this.TheSide(entry.chooser),
              first: this.theSide(entry.first),
              round: entry.round,
            });
      case 'play':
      case 'move': {
        const where = this.beside(deck, table, entry, entry.cardId);
        const key = entry.type === 'play' ? 'log.play' : 'log.move';
        return t(where ? key : `${key}Alone`, {
          side: this.TheSide(entry.side),
          card: card(entry.cardId),
          where,
        });
      }
      case 'action':
        return t(entry.choice === 'event' ? 'log.actionEvent' : 'log.actionCommand', {
          side: this.TheSide(entry.side),
          card: card(entry.cardId),
        });
      case 'eventDecision':
        return t(entry.use ? 'log.eventResolved' : 'log.eventDeclined', {
          side: this.TheSide(entry.side),
          card: card(entry.cardId),
        });
      case 'gain':
        return t('log.gain', {
          side: this.TheSide(entry.side),
          count: entry.amount,
          where: this.marker(entry.marker),
        });
      case 'place': {
        return t(entry.mode === 'infiltrate' ? 'log.infiltrated' : 'log.placed', {
          side: this.TheSide(entry.side),
          card: card(entry.cardId),
          from: entry.from ? t('log.takenBack', { card: card(entry.from) }) : '',
          cost: entry.cost === 2 ? t('log.paidTwo') : '',
        });
      }
      case 'remove':
        return t('log.remove', {
          side: this.TheSide(entry.side),
          other: this.theSide(opponentOf(entry.side)),
          card: card(entry.cardId),
        });
      case 'finishStep':
        return t('log.finishStep', { side: this.TheSide(entry.side) });
      case 'noTarget':
        return t('log.noTarget', {
          side: this.TheSide(entry.side),
          op: t(`log.op_${entry.op}`),
          card: card(entry.cardId),
        });
      case 'regionScored':
        return `${entry.final ? t('log.finalPrefix') : ''}${this.scoreWords(deck, entry.score, entry.marker)}`;
      case 'aftermathSetAside':
        return t('log.aftermathSetAside');
      case 'roundStarted':
        return t('log.roundStarted', { round: entry.round });
      case 'aftermathRevealed':
        return t('log.aftermathRevealed', {
          cards: this.list(entry.score.cards.map(card)),
          us: entry.score.sums.US,
          ussr: entry.score.sums.USSR,
          where: this.marker(entry.marker),
        });
      case 'gameOver':
        return t(entry.result.reason === 'track' ? 'log.gameOverTrack' : 'log.gameOverFinal', {
          side: this.TheSide(entry.result.winnerSide),
        });
    }
  };
}

/** A card beside a cell, and on which side of it. */
type Neighbour = { direction: 'left' | 'right' | 'above' | 'below'; cardId: string };

/** The cards beside a cell on `table`, at most two, in the table's order; `except` left out. */
function neighbours(
  table: readonly Placed[],
  placed: Pick<Placed, 'x' | 'y'>,
  except?: string,
): Neighbour[] {
  const near: Neighbour[] = [];
  for (const p of table) {
    if (p.cardId === except) continue;
    const dx = placed.x - p.x;
    const dy = placed.y - p.y;
    if (Math.abs(dx) + Math.abs(dy) !== 1) continue;
    // Rows grow downwards, as the board draws them.
    const direction = dx < 0 ? 'left' : dx > 0 ? 'right' : dy < 0 ? 'above' : 'below';
    near.push({ direction, cardId: p.cardId });
    if (near.length === 2) break;
  }
  return near;
}

/**
 * One GameWords per translation function and language, shared by every component: each table
 * card asks for it, and a component's own copy would look every name up again.
 */
const shared = new WeakMap<TFunction, Map<string, GameWords>>();

/** The game's words for the current language; a new object when the language changes. */
export function useGameWords(): GameWords {
  const { t, i18n } = useTranslation();
  let byLanguage = shared.get(t);
  if (!byLanguage) {
    byLanguage = new Map();
    shared.set(t, byLanguage);
  }
  let words = byLanguage.get(i18n.language);
  if (!words) {
    words = new GameWords(t);
    byLanguage.set(i18n.language, words);
  }
  return words;
}
