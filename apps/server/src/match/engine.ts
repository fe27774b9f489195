import {
  applyMove,
  builtInDeck,
  gameoverOf,
  type IronCurtainGame,
  ironCurtainFor,
  type LogEntry,
  type MoveName,
  type RulesContext,
  type Seat,
  type SetupData,
  type State,
  viewFor,
} from '@iron-curtain/game';
import type { RefusedMessage, StateFrame } from '@iron-curtain/protocol';
import type { LogEntry as BgioLogEntry, State as BgioState } from 'boardgame.io';
import { CreateGameReducer, InitializeGame } from 'boardgame.io/internal';
import { LRUCache } from 'lru-cache';
import { setupDataOf } from '../decks/built-in-decks.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import type {
  ClockRecord,
  MatchRecord,
  MatchResult,
  Store,
  StoredState,
} from '../storage/index.ts';
import { switchClock } from './clock.ts';
import { withPlainMoves } from './plain-moves.ts';

/** The state a match starts in, dealt from the match's secret seed with the match's own deck. */
export function initialState(match: Pick<MatchRecord, 'deck' | 'setupData' | 'seed'>): StoredState {
  const setupData = setupDataOf(match) as SetupData;
  const { deltalog: _, ...state } = InitializeGame({
    game: { ...ironCurtainFor(setupData).game, seed: match.seed },
    numPlayers: 2,
    setupData,
  });
  return state;
}

/** What one viewer receives of a state: its view of G and the state id. Never ctx or plugins (the PRNG). */
export function frameFor(state: StoredState, viewer: Seat | null): StateFrame {
  return { G: viewFor(state.G as State, viewer), stateID: state._stateID };
}

/** The public log entries a move recorded (engine moves store them as log metadata). */
export function entriesOf(deltalog: BgioLogEntry[] | undefined): LogEntry[] {
  return (deltalog ?? []).flatMap(
    (entry) => (entry.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
  );
}

interface Played {
  game: IronCurtainGame;
  rules: RulesContext;
  reduce: ReturnType<typeof CreateGameReducer>;
}

/** Uploaded decks' contexts whose reducer is kept, the most recently used. */
const UPLOADED_REDUCERS = 64;

// A match's deck and variants never change: its Game, context and reducer are built once per
// distinct context (keyed by the match record's deck hash and variants, so no setup is parsed
// per move). The built-in decks' are kept for good; an uploaded deck's while recently used,
// so that uploads cannot grow the heap (a match on an evicted deck rebuilds it).
const builtInPlayed = new Map<string, Played>();
const uploadedPlayed = new LRUCache<string, Played>({ max: UPLOADED_REDUCERS });

/** How many contexts' reducers are kept now (the memory test watches it). */
export const cachedReducers = (): number => builtInPlayed.size + uploadedPlayed.size;

/** The Game, rules context and reducer a match is played with. */
export function playedWith(match: Pick<MatchRecord, 'deck' | 'variants' | 'setupData'>): Played {
  const key = `${match.deck.hash}:${match.variants.aftermathCap}:${match.variants.finalScoringOrder}`;
  const played = builtInDeck(match.deck.hash) ? builtInPlayed : uploadedPlayed;
  let entry = played.get(key);
  if (!entry) {
    const { game, rules } = ironCurtainFor(setupDataOf(match));
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
    }
  | { ok: false; error: RefusedMessage };

/**
 * How many matches' last states (and records) the engine keeps in memory: a few kB of heap each
 * now that the deck is not in them, so enough for every match of a busy server (a miss loads them).
 */
const REMEMBERED_MATCHES = 5000;

const refused = (code: RefusedMessage['code'], message: string): MoveResult => ({
  ok: false,
  error: { code, message },
});

/**
 * Runs moves of matches through boardgame.io's reducer for the match's Game: the Game (its
 * flow and moves, each running the rules engine) decides legality, once. Callers
 * serialise the moves of one match (see MatchQueues). A move is stored with a compare-and-set
 * on the state id before anything is sent; nothing is sent from here.
 */
export class MatchEngine {
  /**
   * The last state this instance stored per match, least recently used first: the next move
   * on it skips loading it. Safe because the commit is a compare-and-set on the state id:
   * a state another writer has moved past fails the commit as stale, like a stale client.
   */
  private readonly lastStored = new Map<string, { state: StoredState; match: MatchRecord }>();

  constructor(
    private readonly store: Store,
    private readonly time: TimeSource = systemTime,
  ) {}

  /**
   * The match record a move on `stateID` is made with. A match in play changes what a move
   * reads of its record (status, clock) only with a move or when it ends, so the record this
   * instance stored with the state the move is made on is still true, or the match has ended
   * and the move's commit fails as stale. Any other state id reads the store (a Postgres
   * shared by several instances is read once per move otherwise).
   */
  async matchFor(matchID: string, stateID: number): Promise<MatchRecord | undefined> {
    const last = this.lastStored.get(matchID);
    return last?.state._stateID === stateID ? last.match : this.store.getMatch(matchID);
  }

  async move(match: MatchRecord, request: MoveRequest, clockAt?: ClockAt): Promise<MoveResult> {
    const { matchID } = match;
    if (match.status === 'waiting')
      return refused('WAITING_FOR_OPPONENT', 'waiting for the second player');
    if (match.status === 'finished') return refused('MATCH_OVER', 'the match is over');
    const cached = this.lastStored.get(matchID)?.state;
    const loaded =
      cached?._stateID === request.stateID ? cached : await this.store.loadState(matchID);
    if (!loaded) return refused('UNKNOWN_MATCH', 'no such match');
    if (request.stateID !== loaded._stateID) {
      return refused(
        'STALE_STATE',
        `the match is at state ${loaded._stateID}; you sent ${request.stateID}`,
      );
    }
    const G = loaded.G as State;
    if (G.decision?.seat !== request.seat) {
      return refused('NOT_YOUR_DECISION', `it is not seat ${request.seat}'s decision`);
    }
    const { rules, reduce } = playedWith(match);
    const after = reduce(loaded as BgioState, {
      type: 'MAKE_MOVE',
      payload: { type: request.move, args: request.args, playerID: request.seat },
    });
    if (after._stateID === loaded._stateID) {
      // The reducer says only that it refused; the rules engine says why. Asking here, on the
      // rare refusal, costs accepted moves nothing.
      const probe = applyMove(rules, structuredClone(G), request.seat, request.move, request.args);
      if (!probe.ok) return refused('INVALID_MOVE', probe.error);
      return refused('INVALID_MOVE', `${request.move} was refused by the game flow`);
    }
    const { deltalog, transients: _, ...next } = after as BgioState & { transients?: unknown };
    const entries = entriesOf(deltalog);
    const gameover = gameoverOf(next.G as State);
    const result: MatchResult | null = gameover
      ? { winner: gameover.winner, winnerSide: gameover.winnerSide, reason: gameover.reason }
      : null;
    const clock = clockAt
      ? switchClock(
          clockAt.clock,
          gameover ? null : ((next.G as State).decision?.seat ?? null),
          clockAt.now,
        )
      : undefined;
    const at = new Date(this.time.now()).toISOString();
    const stored = await this.store.commitMove(
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
    if (!stored) {
      this.lastStored.delete(matchID);
      return refused('STALE_STATE', 'another move was stored first');
    }
    this.remember(next, { ...match, updatedAt: at, ...(clock ? { clock } : {}) });
    return {
      ok: true,
      previous: loaded,
      state: next,
      entries,
      result,
      ...(clock ? { clock } : {}),
    };
  }

  /** The match has ended: its next move reads the store (and is refused as over). */
  forget(matchID: string): void {
    this.lastStored.delete(matchID);
  }

  private remember(state: StoredState, match: MatchRecord): void {
    const { matchID } = match;
    this.lastStored.delete(matchID);
    if (state.ctx.gameover !== undefined) return;
    this.lastStored.set(matchID, { state, match });
    if (this.lastStored.size > REMEMBERED_MATCHES) {
      const oldest = this.lastStored.keys().next().value as string;
      this.lastStored.delete(oldest);
    }
  }
}
