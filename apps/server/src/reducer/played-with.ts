import {
  builtInDeck,
  type GameReducer,
  type IronCurtainGame,
  ironCurtainFor,
  type RulesContext,
  reducerFor,
  rulesKey,
} from '@iron-curtain/game';
import { LRUCache } from 'lru-cache';
import { type MatchDeck, setupDataOf } from '../decks/built-in-decks.ts';
import { withPlainMoves } from './plain-moves.ts';

/** What a match is played with: its Game, its rules context, and the reducer that steps it. */
export interface Played {
  game: IronCurtainGame;
  rules: RulesContext;
  reduce: GameReducer;
}

/** Uploaded decks' contexts whose reducer is kept, the most recently used. */
const UPLOADED_REDUCERS = 64;

// A match's deck and variants never change: its reducer is built once per distinct context
// (rulesKey, as the Games are). The built-in decks' are kept for good; an uploaded deck's while
// recently used, so that uploads cannot grow the heap (a match on an evicted deck rebuilds it).
// A live match's room asks once and keeps what it got, so no setup is parsed per move.
const builtInPlayed = new Map<string, Played>();
const uploadedPlayed = new LRUCache<string, Played>({ max: UPLOADED_REDUCERS });

/** How many contexts' reducers are kept now (the memory test watches it). */
export const cachedReducers = (): number => builtInPlayed.size + uploadedPlayed.size;

/**
 * The Game, rules context and reducer a match is played with, on the server: its moves made
 * (MatchEngine) and its stored moves replayed (the SQLite store's snapshots) by one reducer, of
 * the Game with its moves on plain copies (withPlainMoves).
 */
export function playedWith(match: MatchDeck): Played {
  const { game, rules } = ironCurtainFor(setupDataOf(match));
  const key = rulesKey(rules);
  const played = builtInDeck(match.deck.hash) ? builtInPlayed : uploadedPlayed;
  let entry = played.get(key);
  if (!entry) {
    entry = { game, rules, reduce: reducerFor(withPlainMoves(game)) };
    played.set(key, entry);
  }
  return entry;
}
