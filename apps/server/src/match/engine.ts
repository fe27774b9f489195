import {
  builtInDeck,
  type FullState,
  type GameReducer,
  type IronCurtainGame,
  initialFull,
  ironCurtainFor,
  type LogEntry,
  type MoveName,
  type RulesContext,
  rulesKey,
  type Seat,
  type State,
  stepMove,
  viewFor,
} from '@iron-curtain/game';
import type { RefusedMessage, StateFrame } from '@iron-curtain/protocol';
import { CreateGameReducer } from 'boardgame.io/internal';
import { LRUCache } from 'lru-cache';
import { setupDataOf } from '../decks/built-in-decks.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import type {
  ClockRecord,
  MatchRecord,
  MatchResult,
  MatchStore,
  StoredState,
} from '../storage/index.ts';
import { switchClock } from './clock-record.ts';
import { withPlainMoves } from './plain-moves.ts';

/** The state a match starts in, dealt from the match's secret seed with the match's own deck. */
export function initialState(match: Pick<MatchRecord, 'deck' | 'setupData' | 'seed'>): StoredState {
  const setupData = setupDataOf(match);
  const { deltalog: _, ...state } = initialFull(
    ironCurtainFor(setupData).game,
    setupData,
    match.seed,
  );
  return state;
}

/** What one viewer receives of a state: its view of G and the state id. Never ctx or plugins (the PRNG). */
export function frameFor(state: StoredState, viewer: Seat | null): StateFrame {
  return { G: viewFor(state.G as State, viewer), stateID: state._stateID };
}

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

/** The Game, rules context and reducer a match is played with. */
export function playedWith(match: Pick<MatchRecord, 'deck' | 'variants' | 'setupData'>): Played {
  const { game, rules } = ironCurtainFor(setupDataOf(match));
  const key = rulesKey(rules);
  const played = builtInDeck(match.deck.hash) ? builtInPlayed : uploadedPlayed;
  let entry = played.get(key);
  if (!entry) {
    entry = { game, rules, reduce: CreateGameReducer({ game: withPlainMoves(game) }) };
    played.set(key, entry);
  }
  return entry;
}

export interface MoveRequest {
  seat: Seat;
  stateID: number;
  move: MoveName;
  args: unknown[];
}

/** A match's clock and the time a move arrived: the move is charged to the seat that made it. */
export interface ClockAt {
  clock: ClockRecord;
  now: number;
}

export type MoveResult =
  | {
      ok: true;
      /** The state the move was made on. */
      previous: StoredState;
      state: StoredState;
      entries: LogEntry[];
      clock?: ClockRecord;
      result: MatchResult | null;
      /** When the move was stored (the record's updatedAt from then on). */
      at: string;
    }
  | { ok: false; error: RefusedMessage };

const refused = (code: RefusedMessage['code'], message: string): MoveResult => ({
  ok: false,
  error: { code, message },
});

/**
 * Runs moves of matches through boardgame.io's reducer for the match's Game: the Game (its
 * turn order and moves, each running the rules engine) decides legality, once (see stepMove).
 * Callers serialise the moves of one match (its MatchRoom) and hand in the state they hold.
 * A move is stored with a compare-and-set on the state id before anything is sent; a state
 * another writer has moved past fails the commit as stale, like a stale client.
 */
export class MatchEngine {
  constructor(
    private readonly matches: Pick<MatchStore, 'loadState' | 'commitMove'>,
    private readonly time: TimeSource = systemTime,
  ) {}

  /**
   * Makes a move on `known` (the state the caller holds; read from the store when absent or
   * not the state the move is made on).
   */
  async move(
    match: MatchRecord,
    request: MoveRequest,
    clockAt?: ClockAt,
    known?: StoredState,
    played: Played = playedWith(match),
  ): Promise<MoveResult> {
    const { matchID } = match;
    if (match.status === 'waiting')
      return refused('WAITING_FOR_OPPONENT', 'waiting for the second player');
    if (match.status === 'finished') return refused('MATCH_OVER', 'the match is over');
    const loaded =
      known?._stateID === request.stateID ? known : await this.matches.loadState(matchID);
    if (!loaded) return refused('UNKNOWN_MATCH', 'no such match');
    if (request.stateID !== loaded._stateID) {
      return refused(
        'STALE_STATE',
        `the match is at state ${loaded._stateID}; you sent ${request.stateID}`,
      );
    }
    const step = stepMove(played.game, played.reduce, loaded as FullState, request);
    if (!step.ok) {
      return refused(
        step.refusal === 'not-your-decision' ? 'NOT_YOUR_DECISION' : 'INVALID_MOVE',
        step.reason,
      );
    }
    const {
      deltalog: _,
      transients: __,
      ...next
    } = step.full as FullState & {
      transients?: unknown;
    };
    const { entries, gameover } = step;
    const result: MatchResult | null = gameover
      ? { winner: gameover.winner, winnerSide: gameover.winnerSide, reason: gameover.reason }
      : null;
    const clock = clockAt
      ? switchClock(
          clockAt.clock,
          gameover ? null : ((next.G as State).decision?.seat ?? null),
          clockAt.now,
          !!match.daysPerTurn,
        )
      : undefined;
    const at = new Date(this.time.now()).toISOString();
    const stored = await this.matches.commitMove(
      matchID,
      loaded._stateID,
      next,
      {
        stateID: next._stateID,
        seat: request.seat,
        move: request.move,
        args: request.args,
        entries,
        at,
      },
      result,
      clock,
    );
    if (!stored) return refused('STALE_STATE', 'another move was stored first');
    return {
      ok: true,
      previous: loaded,
      state: next,
      entries,
      result,
      at,
      ...(clock ? { clock } : {}),
    };
  }
}
