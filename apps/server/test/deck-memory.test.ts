import v8 from 'node:v8';
import vm from 'node:vm';
import {
  cachedGames,
  DEFAULT_DECK,
  deckFileOf,
  legalMoves,
  loadDeck,
  type Seat,
  type State,
} from '@iron-curtain/game';
import type { State as BgioState } from 'boardgame.io';
import { describe, expect, it } from 'vitest';
import { initialState } from '../src/match/engine.ts';
import { cachedReducers, playedWith } from '../src/reducer/played-with.ts';
import { deckInfoOf } from './support.ts';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Heap in use once everything unreachable is collected. */
function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const template = deckFileOf(DEFAULT_DECK);
/** An uploaded deck of its own: the default deck's file under another name (another hash). */
const uploadedDeck = (n: number) => loadDeck({ ...template, id: `upload-${n}`, name: `Deck ${n}` });

/** A match dealt from an uploaded deck, and one move of it, through the server's engine. */
function playOneMove(n: number): void {
  const deck = uploadedDeck(n);
  const variants = { aftermathCap: 3 as const, finalScoringOrder: 'standard' as const };
  const match = {
    deck: deckInfoOf(deck),
    variants,
    setupData: { sides: { '0': 'US', '1': 'USSR' }, variants, deck: deckFileOf(deck) },
    seed: `seed-${n}`,
  };
  const state = initialState(match);
  const { rules, reduce } = playedWith(match);
  const G = state.G as State;
  const seat = G.decision?.seat as Seat;
  const [move] = legalMoves(rules, G, seat);
  if (!move) throw new Error('no legal move');
  const after = reduce(state as BgioState, {
    type: 'MAKE_MOVE',
    payload: { type: move.move, args: move.args, playerID: seat },
  });
  expect(after._stateID).toBe(state._stateID + 1);
}

describe('matches on uploaded decks', () => {
  it('leave the heap within a fixed bound, however many distinct decks are played', () => {
    // Fill the caches first: what stays is the bound, not the growth.
    for (let n = 0; n < 100; n++) playOneMove(n);
    const before = heapAfterGc();
    const sizes = { games: cachedGames(), reducers: cachedReducers() };
    for (let n = 100; n < 1100; n++) playOneMove(n);
    const grown = heapAfterGc() - before;
    expect({ games: cachedGames(), reducers: cachedReducers() }).toEqual(sizes);
    expect(sizes.games).toBeLessThan(100);
    // A deck's Game, context and reducer are some hundred kB: 1,000 kept would be far more.
    expect(grown).toBeLessThan(8 * 1024 * 1024);
  });
});
