import { eachSeatPlayedACard, type Seat, type State } from '@iron-curtain/game';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, MatchResult, MatchStore } from '../storage/index.ts';
import { flagFallen, switchClock } from './clock-record.ts';
import type { Outcome, RoomView } from './room.ts';

/**
 * The one way a match ends (see MatchEnding.finish): the result stored with the clock
 * stopped, the timer cleared, players and spectators told. False when it had already ended.
 * A result of null closes a match that never began (its creator left before anyone joined).
 */
export type FinishMatch = (
  matchID: string,
  result: MatchResult | null,
  now: number,
) => Promise<boolean>;

export interface MatchEndingDeps {
  matches: Pick<MatchStore, 'finishMatch' | 'getMatch' | 'loadState'>;
  time: TimeSource;
}

/** What ending a match came to: whether this ended it, and the outcome for the room. */
export interface EndOutcome extends Outcome {
  ended: boolean;
}

/**
 * Ends a room's match, whatever ended it: a resignation, a claim, the clock, a track win or
 * final scoring. It stores the result and returns what the room is to apply and tell.
 * Computer players and rematch offers follow from the finished status they are told.
 */
export class MatchEnding {
  constructor(private readonly deps: MatchEndingDeps) {}

  /** In the room: the lobby or the referee ends the match (read afresh: they decided on the store). */
  async finish(room: RoomView, result: MatchResult | null, now: number): Promise<EndOutcome> {
    const match = await room.reread();
    if (!match || match.status === 'finished') return { ended: false };
    return this.end(match, result, now);
  }

  /** In the room: its timer fired; ends the match if the running seat's time is really up. */
  async clockCheck(room: RoomView): Promise<Outcome> {
    // Read afresh: a room with no viewer hears nothing of moves made on other instances.
    const match = await room.reread();
    if (match?.status !== 'playing' || !match.clock) return {};
    const now = this.deps.time.now();
    // Not up yet (a move was made meanwhile): the timer is set to the deadline as stored.
    if (flagFallen(match.clock, now) === null) return { clock: match };
    return this.onTime(match, now);
  }

  /** The running seat ran out of time: its opponent wins, reason 'timeout'. */
  async onTime(match: MatchRecord, now: number): Promise<Outcome> {
    const loser = match.clock ? flagFallen(match.clock, now) : null;
    if (loser === null) return {};
    const winner: Seat = loser === '0' ? '1' : '0';
    const winnerSide = match.players[Number(winner)]?.side ?? 'US';
    return this.end(match, { winner, winnerSide, reason: 'timeout' }, now);
  }

  /**
   * A move ended the match (stored with it): a rated match is read again for what its end
   * stored (each seat's rating change).
   */
  async byMove(finished: MatchRecord): Promise<Outcome> {
    const stored = finished.rated ? await this.deps.matches.getMatch(finished.matchID) : undefined;
    return ended(stored ?? finished);
  }

  /**
   * Stores the result with the clock stopped; not ended when it had already ended. A rated
   * match that counts and ends before each seat played a card ends without a winner: aborted.
   */
  private async end(
    match: MatchRecord,
    given: MatchResult | null,
    now: number,
  ): Promise<EndOutcome> {
    const result = given && (await this.aborted(match)) ? null : given;
    const stopped = match.clock ? switchClock(match.clock, null, now) : undefined;
    const at = new Date(now).toISOString();
    const { matches } = this.deps;
    if (!(await matches.finishMatch(match.matchID, result, at, stopped))) {
      return { ended: false, record: null };
    }
    // The store rated it (or marked it unrated) with the result: read what it stored.
    const stored = match.rated ? await matches.getMatch(match.matchID) : undefined;
    const finished: MatchRecord = stored ?? {
      ...match,
      status: 'finished',
      result,
      updatedAt: at,
      ...(stopped ? { clock: stopped } : {}),
    };
    return { ended: true, ...ended(finished) };
  }

  private async aborted(match: MatchRecord): Promise<boolean> {
    if (!match.rated || match.unrated) return false;
    const state = await this.deps.matches.loadState(match.matchID);
    return state !== undefined && !eachSeatPlayedACard(state.G as State);
  }
}

/**
 * The match is over, as stored (by MatchEnding, or with the move that ended it): the timer is
 * cleared, the room forgets the play and keeps the finished record, and everyone is told
 * (the seats also by push, without waiting for it).
 */
export function ended(finished: MatchRecord): Outcome {
  return {
    record: finished,
    state: null,
    clock: finished,
    tell: [
      { kind: 'ended', match: finished },
      { kind: 'announce', match: finished },
    ],
  };
}
