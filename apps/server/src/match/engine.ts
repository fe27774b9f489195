import {
  type FullState,
  initialFull,
  ironCurtainFor,
  keptState,
  type LogEntry,
  type MoveName,
  type Seat,
  type State,
  stepMove,
  viewFor,
} from '@iron-curtain/game';
import type { RefusedMessage, StateFrame } from '@iron-curtain/protocol';
import { setupDataOf } from '../decks/built-in-decks.ts';
import { systemTime, type TimeSource } from '../ops/time.ts';
import { type Played, playedWith } from '../reducer/played-with.ts';
import type {
  ClockRecord,
  MatchRecord,
  MatchResult,
  MatchStore,
  StoredState,
} from '../storage/index.ts';
import { switchClock } from './clock-record.ts';

/** The state a match starts in, dealt from the match's secret seed with the match's own deck. */
export function initialState(match: Pick<MatchRecord, 'deck' | 'setupData' | 'seed'>): StoredState {
  const setupData = setupDataOf(match);
  return keptState(initialFull(ironCurtainFor(setupData).game, setupData, match.seed));
}

/** What one viewer receives of a state: its view of G and the state id. Never ctx or plugins (the PRNG). */
export function frameFor(state: StoredState, viewer: Seat | null): StateFrame {
  return { G: viewFor(state.G as State, viewer), stateID: state._stateID };
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
    const next = keptState(step.full);
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
