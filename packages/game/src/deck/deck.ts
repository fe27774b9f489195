import type { CardId, EffectStep, RegionId, Side } from '../types.ts';

/** Whether a value of the deck is known from the published game or a reconstruction. */
export type FieldStatus = 'confirmed' | 'reconstructed';

export interface Region {
  id: RegionId;
  name: string;
  size: number;
  bonus: number;
  status: { size: FieldStatus; bonus: FieldStatus };
}

export interface Card {
  id: CardId;
  name: string;
  region: RegionId;
  /** Whose event the card carries; null only for the starter. */
  flag: Side | null;
  /** Command value 1-4; null only for the starter. */
  command: number | null;
  /** The event as written in the deck file, for display. */
  eventText: string[];
  effects: EffectStep[];
  status: {
    name: FieldStatus;
    region: FieldStatus;
    flag: FieldStatus;
    command: FieldStatus;
    event: FieldStatus;
  };
}

export interface Deck {
  /** sha256 of the deck file's canonical JSON: what states, records and caches name it by. */
  hash: string;
  id: string;
  version: string;
  name: string;
  /** Regions in standard final scoring order. */
  regions: Region[];
  starter: CardId;
  cards: Card[];
}

/** True when any field of the deck is a reconstruction rather than a confirmed fact. */
export function isReconstructed(deck: Deck): boolean {
  return (
    deck.regions.some((r) => Object.values(r.status).includes('reconstructed')) ||
    deck.cards.some((c) => Object.values(c.status).includes('reconstructed'))
  );
}
