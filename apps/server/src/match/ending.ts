import type { Seat } from '@iron-curtain/game';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, MatchResult, MatchStore } from '../storage/index.ts';
import { flagFallen, switchClock } from './clock-record.ts';
import type { Room } from './room.ts';
import type { SeatSessions } from './seat-sessions.ts';
import type { TurnClock } from './turn-clock.ts';
import type { TurnNews } from './turn-news.ts';

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
  matches: Pick<MatchStore, 'finishMatch'>;
  time: TimeSource;
  clock: TurnClock;
  sessions: SeatSessions;
  news: TurnNews;
}

/**
 * Ends a room's match, whatever ended it: a resignation, a claim, the clock, a track win or
 * final scoring. Computer players and rematch offers follow from the finished status they
 * are told.
 */
export class MatchEnding {
  constructor(private readonly deps: MatchEndingDeps) {}

  /** In the room: the lobby or the referee ends the match (read afresh: they decided on the store). */
  async finish(room: Room, result: MatchResult | null, now: number): Promise<boolean> {
    const match = await room.reread();
    if (!match || match.status === 'finished') return false;
    return this.end(room, match, result, now);
  }

  /** In the room: its timer fired; ends the match if the running seat's time is really up. */
  async clockCheck(room: Room): Promise<void> {
    // Read afresh: a room with no viewer hears nothing of moves made on other instances.
    const match = await room.reread();
    if (match?.status !== 'playing' || !match.clock) return;
    const now = this.deps.time.now();
    if (flagFallen(match.clock, now) === null) this.deps.clock.arm(room, match);
    else await this.onTime(room, match, now);
  }

  /** The running seat ran out of time: its opponent wins, reason 'timeout'. */
  async onTime(room: Room, match: MatchRecord, now: number): Promise<void> {
    const loser = match.clock ? flagFallen(match.clock, now) : null;
    if (loser === null) return;
    const winner: Seat = loser === '0' ? '1' : '0';
    const winnerSide = match.players[Number(winner)]?.side ?? 'US';
    await this.end(room, match, { winner, winnerSide, reason: 'timeout' }, now);
  }

  /** Stores the result with the clock stopped, then tells everyone; false when it had already ended. */
  private async end(
    room: Room,
    match: MatchRecord,
    result: MatchResult | null,
    now: number,
  ): Promise<boolean> {
    const stopped = match.clock ? switchClock(match.clock, null, now) : undefined;
    const at = new Date(now).toISOString();
    if (!(await this.deps.matches.finishMatch(match.matchID, result, at, stopped))) {
      room.record = undefined;
      return false;
    }
    await this.ended(room, {
      ...match,
      status: 'finished',
      result,
      updatedAt: at,
      ...(stopped ? { clock: stopped } : {}),
    });
    return true;
  }

  /**
   * The match is over, as stored (by `end`, or with the move that ended it): the timer is
   * cleared, the room forgets the play and keeps the finished record, and everyone is told
   * (the seats also by push, without waiting for it).
   */
  async ended(room: Room, finished: MatchRecord): Promise<void> {
    this.deps.clock.clear(room);
    room.state = undefined;
    room.record = finished;
    this.deps.news.ended(finished);
    await this.deps.sessions.announce(room, finished);
  }
}
