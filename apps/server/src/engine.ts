import {
  applyMove,
  gameoverOf,
  IronCurtain,
  type LogEntry,
  type MoveName,
  type Seat,
  type SetupData,
  type State,
  viewFor,
} from '@iron-curtain/game';
import type { RefusedMessage } from '@iron-curtain/protocol';
import type { LogEntry as BgioLogEntry, State as BgioState } from 'boardgame.io';
import { Async, InitializeGame } from 'boardgame.io/internal';
import { Master } from 'boardgame.io/master';
import { switchClock } from './match-clock.ts';
import type { ClockRecord, MatchResult, MatchStatus, Store, StoredState } from './storage/index.ts';

/** The state a match starts in, dealt from the match's secret seed. */
export function initialState(setupData: SetupData, seed: string): StoredState {
  const { deltalog: _, ...state } = InitializeGame({
    game: { ...IronCurtain, seed },
    numPlayers: 2,
    setupData,
  });
  return state;
}

/** What one viewer receives of a state: its view of G, boardgame.io's ctx, the state id. Never plugins (the PRNG). */
export function frameFor(state: StoredState, viewer: Seat | null) {
  return {
    G: viewFor(state.G as State, viewer) as unknown as Record<string, unknown>,
    ctx: state.ctx as unknown as Record<string, unknown>,
    stateID: state._stateID,
  };
}

/** The public log entries a move recorded (engine moves store them as log metadata). */
export function entriesOf(deltalog: BgioLogEntry[] | undefined): LogEntry[] {
  return (deltalog ?? []).flatMap(
    (entry) => (entry.metadata as { entries?: LogEntry[] } | undefined)?.entries ?? [],
  );
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
  | { ok: true; state: StoredState; entries: LogEntry[]; clock?: ClockRecord }
  | { ok: false; error: RefusedMessage };

/** How many matches' last states the engine keeps in memory (about 13 kB of heap each, deck included). */
const REMEMBERED_MATCHES = 1000;

const refused = (code: RefusedMessage['code'], message: string): MoveResult => ({
  ok: false,
  error: { code, message },
});

/** One move in flight: what the bridge below hands to Master and what Master hands back. */
interface Call {
  matchID: string;
  loaded: StoredState;
  request: MoveRequest;
  clockAt?: ClockAt | undefined;
  /** The clock as committed with the move. */
  clock?: ClockRecord;
  next?: BgioState;
  outcome: 'refused' | 'committed' | 'stale';
}

/**
 * boardgame.io's storage interface, backed by the moves in flight (at most one per match,
 * as the caller queues them): Master reads the state we loaded, and its write becomes our
 * compare-and-set commit with the move appended to the log.
 */
class CallStorage extends Async {
  readonly calls = new Map<string, Call>();
  constructor(private readonly store: Store) {
    super();
  }
  private current(matchID: string): Call {
    const call = this.calls.get(matchID);
    if (!call) throw new Error(`no move in flight for match ${matchID}`);
    return call;
  }
  connect() {}
  async fetch(matchID: string) {
    // No metadata: Master then neither authenticates (the socket did) nor writes metadata.
    return { state: this.current(matchID).loaded } as never;
  }
  async setState(matchID: string, state: BgioState, deltalog?: BgioLogEntry[]) {
    const call = this.current(matchID);
    // Master stores even a refused move; an unchanged state id means nothing happened.
    if (state._stateID === call.loaded._stateID) return;
    const { deltalog: _, ...next } = state;
    const gameover = gameoverOf(next.G as State);
    const result: MatchResult | null = gameover
      ? { winner: gameover.winner, winnerSide: gameover.winnerSide, reason: gameover.reason }
      : null;
    if (call.clockAt) {
      const decider = gameover ? null : ((next.G as State).decision?.seat ?? null);
      call.clock = switchClock(call.clockAt.clock, decider, call.clockAt.now);
    }
    const ok = await this.store.commitMove(
      matchID,
      call.loaded._stateID,
      next,
      {
        stateID: next._stateID,
        seat: call.request.seat,
        move: call.request.move,
        args: call.request.args,
        entries: entriesOf(deltalog),
        at: new Date().toISOString(),
      },
      result,
      call.clock,
    );
    call.outcome = ok ? 'committed' : 'stale';
  }
  async setMetadata() {}
  async wipe() {}
  override async listMatches() {
    return [];
  }
}

/**
 * Runs moves of matches through boardgame.io's Master. Matches run concurrently; callers
 * serialise the moves of one match (see MatchQueues); Master applies the move and, when it
 * refuses, the rules engine gives the reason; the engine reports the stored result. Nothing is sent from here: the
 * caller broadcasts only what was committed.
 */
export class MatchEngine {
  private readonly storage: CallStorage;
  private readonly master: Master;
  /**
   * The last state this instance stored per match, least recently used first: the next move
   * on it skips loading it. Safe because the commit is a compare-and-set on the state id:
   * a state another writer has moved past fails the commit as stale, like a stale client.
   */
  private readonly lastStored = new Map<string, StoredState>();

  constructor(private readonly store: Store) {
    this.storage = new CallStorage(store);
    this.master = new Master(IronCurtain, this.storage, {
      send: () => undefined,
      sendAll: (data) => {
        const call = this.storage.calls.get(data.args[0]);
        if (data.type === 'update' && call) call.next = data.args[1];
      },
    });
  }

  async move(
    matchID: string,
    status: MatchStatus,
    request: MoveRequest,
    clockAt?: ClockAt,
  ): Promise<MoveResult> {
    if (status === 'waiting')
      return refused('WAITING_FOR_OPPONENT', 'waiting for the second player');
    if (status === 'finished') return refused('MATCH_OVER', 'the match is over');
    const cached = this.lastStored.get(matchID);
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

    if (this.storage.calls.has(matchID))
      throw new Error(`a move of ${matchID} is already in flight`);
    const call: Call = { matchID, loaded, request, clockAt, outcome: 'refused' };
    this.storage.calls.set(matchID, call);
    try {
      await this.master.onUpdate(
        {
          type: 'MAKE_MOVE',
          payload: {
            type: request.move,
            args: request.args,
            playerID: request.seat,
            credentials: '',
          },
        },
        request.stateID,
        matchID,
        request.seat,
      );
    } catch (error) {
      this.lastStored.delete(matchID);
      throw error;
    } finally {
      this.storage.calls.delete(matchID);
    }
    if (call.outcome === 'stale') {
      this.lastStored.delete(matchID);
      return refused('STALE_STATE', 'another move was stored first');
    }
    if (call.outcome !== 'committed' || !call.next) {
      // Master says only that it refused; the rules engine says why. Probing here, on the
      // rare refusal, rather than before every move spares cloning G (and its deck) per move.
      const probe = applyMove(structuredClone(G), request.seat, request.move, request.args);
      if (!probe.ok) return refused('INVALID_MOVE', probe.error);
      return refused('INVALID_MOVE', `${request.move} was refused by the game flow`);
    }
    const { deltalog, ...state } = call.next;
    this.remember(matchID, state);
    return {
      ok: true,
      state,
      entries: entriesOf(deltalog),
      ...(call.clock ? { clock: call.clock } : {}),
    };
  }

  private remember(matchID: string, state: StoredState): void {
    this.lastStored.delete(matchID);
    if (state.ctx.gameover !== undefined) return;
    this.lastStored.set(matchID, state);
    if (this.lastStored.size > REMEMBERED_MATCHES) {
      const oldest = this.lastStored.keys().next().value as string;
      this.lastStored.delete(oldest);
    }
  }
}
