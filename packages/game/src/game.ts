import type { Game, LongFormMove } from 'boardgame.io';
import { LRUCache } from 'lru-cache';
import { BUILT_IN_DECKS } from './deck/built-in.ts';
import { applyMove } from './rules.ts';
import { type RulesContext, rulesKey } from './rules-context.ts';
import { createState, parseSetupData, rulesOf, type SetupData } from './setup.ts';
import { type State, seatOf } from './state.ts';
import { MOVE_NAMES, type MoveName, type Result, type Seat } from './types.ts';
import { viewFor } from './view.ts';

/** boardgame.io's marker for a refused move. */
export const INVALID_MOVE = 'INVALID_MOVE';

export interface Gameover extends Result {
  winner: Seat;
}

export const gameoverOf = (state: State): Gameover | undefined =>
  state.result ? { ...state.result, winner: seatOf(state, state.result.winnerSide) } : undefined;

export type IronCurtainGame = Game<State, Record<string, unknown>, SetupData>;

/**
 * boardgame.io's current player is the decider: the seat the engine waits for, who is not
 * always the seat whose turn of the round it is (an opponent places cubes, a seat chooses who
 * goes first).
 */
const decider = (G: State): Seat => G.decision?.seat ?? '0';

/**
 * The engine's reason for the last move a Game refused. boardgame.io's reducer says only that
 * a move was invalid; the reducer runs synchronously, so whoever runs it reads the reason
 * right after (see stepMove), and the move is not run a second time to find out why.
 */
interface Refusal {
  reason: string | undefined;
}
const refusals = new WeakMap<IronCurtainGame, Refusal>();

/** Where a Game made here writes the reason of its last refusal (see stepMove). */
export const refusalOf = (game: IronCurtainGame): Refusal | undefined => refusals.get(game);

/**
 * The boardgame.io Game for one rules context. Every move runs the pure engine on
 * boardgame.io's draft of G; the engine validates before it changes anything, so a refusal
 * leaves G untouched. Moves run on the server only: a client's view lacks the hidden cards
 * that a move (the round-2 deal, for one) may need.
 */
function createIronCurtain(rules: RulesContext): IronCurtainGame {
  const refusal: Refusal = { reason: undefined };
  const engineMove = (name: MoveName): LongFormMove<State> => ({
    client: false,
    move: ({ G, playerID, log }, ...args: unknown[]) => {
      const outcome = applyMove(rules, G, playerID, name, args);
      if (!outcome.ok) {
        refusal.reason = outcome.error;
        return INVALID_MOVE;
      }
      log.setMetadata({ entries: outcome.log });
    },
  });
  const moves = Object.fromEntries(MOVE_NAMES.map((name) => [name, engineMove(name)])) as Record<
    MoveName,
    LongFormMove<State>
  >;
  const game: IronCurtainGame = {
    name: 'iron-curtain',
    minPlayers: 2,
    maxPlayers: 2,
    // The deck and variants come from the context; setupData gives the sides and a fixed deal.
    setup: ({ random }, setupData) =>
      createState(
        { ...parseSetupData(setupData), deck: rules.deck, variants: rules.variants },
        (cards) => random.Shuffle(cards),
      ),
    validateSetupData: (setupData, numPlayers) => {
      if (numPlayers !== 2) return 'Iron Curtain is a game for exactly 2 players';
      try {
        parseSetupData(setupData);
        return undefined;
      } catch (error) {
        return (error as Error).message;
      }
    },
    moves,
    // A turn lasts while one seat decides: it ends when the engine waits for the other seat.
    // No event is fired (boardgame.io builds an Error with a stack trace for each), and the
    // engine alone says which moves a decision allows. A state stored while decisions were
    // stages of the turn (activePlayers set) ends its turn after its next move.
    turn: {
      order: {
        first: ({ G }) => Number(decider(G)),
        next: ({ G }) => Number(decider(G)),
      },
      endIf: ({ G, ctx }) =>
        !G.result && (ctx.activePlayers !== null || decider(G) !== ctx.currentPlayer),
    },
    endIf: ({ G }) => gameoverOf(G),
    playerView: ({ G, playerID }) => viewFor(G, playerID as Seat | null),
    // The flow follows the engine's decisions (turn.endIf above); clients may fire no event.
    events: {
      endGame: false,
      endPhase: false,
      setPhase: false,
      endTurn: false,
      pass: false,
      setActivePlayers: false,
      endStage: false,
      setStage: false,
    },
    // Undo would restore the random state too and let a player peek at a draw.
    disableUndo: true,
  };
  refusals.set(game, refusal);
  return game;
}

/** Uploaded decks' contexts whose Game is kept, the most recently used: each holds its deck index. */
const UPLOADED_GAMES = 64;

// A context never changes, so one Game (and one context object, whose deck index is built
// once) serves every match played under it. The built-in decks' contexts are few and kept for
// good; those of uploaded decks, as many as there are uploads, only while recently used.
const builtIn = new Map<string, { game: IronCurtainGame; rules: RulesContext }>();
const uploaded = new LRUCache<string, { game: IronCurtainGame; rules: RulesContext }>({
  max: UPLOADED_GAMES,
});
const BUILT_IN_HASHES = new Set(BUILT_IN_DECKS.map((deck) => deck.hash));

function entryFor(rules: RulesContext) {
  const key = rulesKey(rules);
  const games = BUILT_IN_HASHES.has(rules.deck.hash) ? builtIn : uploaded;
  let entry = games.get(key);
  if (!entry) {
    entry = { game: createIronCurtain(rules), rules };
    games.set(key, entry);
  }
  return entry;
}

/** How many contexts' Games are kept now (the memory test watches it). */
export const cachedGames = (): number => builtIn.size + uploaded.size;

/** The boardgame.io Game for a rules context (one object per distinct context). */
export const ironCurtain = (rules: RulesContext): IronCurtainGame => entryFor(rules).game;

/** The Game and context a match's setupData (deck file, variants) describes. */
export const ironCurtainFor = (
  setupData: unknown,
): { game: IronCurtainGame; rules: RulesContext } => entryFor(rulesOf(parseSetupData(setupData)));
