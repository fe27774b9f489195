// What decides one self-play game before any move: its deal's seed and who plays which side.
import type { Contestant, GameSpec } from '@iron-curtain/bots';
import type { Side } from '@iron-curtain/game';
import { changedDeck } from './deck-changes.ts';

export interface WorkerSetup {
  seed: string;
  a: Contestant;
  b: Contestant;
  /** Keep each game's moves in the log, so that it replays without the bots (bench/balance-stats.ts). */
  keepMoves?: true;
  /** Reconstructed fields of the deck changed for a balance experiment (--set). */
  deckChanges?: string[];
  /** The built-in deck version played (--deck); absent in logs written before deck versions. */
  deckVersion?: string;
  /** An edition other than the standard one (--no-aftermath-cap, --polish-scoring). */
  variants?: { aftermathCap?: null; finalScoringOrder?: 'polish' };
}

/** Every self-play log written before deck versions played the first one. */
export const UNVERSIONED_DECK = '1';

/** The deck and variants the games of a run are played with (absent variants: the standard edition). */
export function rulesOfRun(setup: WorkerSetup): GameSpec['rules'] {
  return {
    deck: changedDeck(setup.deckChanges ?? [], setup.deckVersion ?? UNVERSIONED_DECK),
    ...(setup.variants ? { variants: setup.variants } : {}),
  };
}

/** Game 2k and 2k+1 share one deal with the sides swapped, so both bots play every deal from both sides. */
export function gameOf(setup: WorkerSetup, index: number): { seed: string; aSide: Side } {
  return { seed: `${setup.seed}:${Math.floor(index / 2)}`, aSide: index % 2 === 0 ? 'US' : 'USSR' };
}
