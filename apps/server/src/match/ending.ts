import type { Seat } from '@iron-curtain/game';
import type { MatchRecord, MatchResult, Store } from '../storage/index.ts';
import { flagFallen, switchClock } from './clock.ts';
import type { MatchQueues } from './queues.ts';

/**
 * The one way a match ends (see MatchEnding.finish): the result stored with the clock
 * stopped, the timers cleared, players and spectators told. False when it had already ended.
 * A result of null closes a match that never began (its creator left before anyone joined).
 */
export type FinishMatch = (
  matchID: string,
  result: MatchResult | null,
  now: number,
) => Promise<boolean>;

export interface MatchEndingDeps {
  store: Store;
  queues: MatchQueues;
  /** Clears the match's clock timer and what this instance remembers of its play. */
  forgetPlay: (matchID: string) => void;
  /** Tells the match's players and spectators, here and on other instances. */
  announce: (match: MatchRecord) => Promise<void>;
}

/**
 * Ends matches, whatever ended them: a resignation, a claim, the clock, a track win or final
 * scoring. Computer players and rematch offers follow from the finished status they are told.
 */
export class MatchEnding {
  constructor(private readonly deps: MatchEndingDeps) {}

  /** Ends a match from outside its queue (the lobby, the referee); runs in the queue. */
  readonly finish: FinishMatch = (matchID, result, now) =>
    this.deps.queues.run(matchID, async () => {
      const match = await this.deps.store.getMatch(matchID);
      if (!match || match.status === 'finished') return false;
      return this.end(match, result, now);
    });

  /** The running seat ran out of time: its opponent wins, reason 'timeout'. */
  async onTime(match: MatchRecord, now: number): Promise<void> {
    const loser = match.clock ? flagFallen(match.clock, now) : null;
    if (loser === null) return;
    const winner: Seat = loser === '0' ? '1' : '0';
    const winnerSide = match.players[Number(winner)]?.side ?? 'US';
    await this.end(match, { winner, winnerSide, reason: 'timeout' }, now);
  }

  /**
   * In the match's queue: stores the result with the clock stopped (a move that ended the
   * game stored both with itself, atomically), clears the timers and tells everyone. False
   * when the match had already ended.
   */
  async end(
    match: MatchRecord,
    result: MatchResult | null,
    now: number,
    stored?: 'stored with the move',
  ): Promise<boolean> {
    const { store } = this.deps;
    if (!stored) {
      const stopped = match.clock ? switchClock(match.clock, null, now) : undefined;
      const at = new Date(now).toISOString();
      if (!(await store.finishMatch(match.matchID, result, at, stopped))) return false;
    }
    this.deps.forgetPlay(match.matchID);
    const finished = await store.getMatch(match.matchID);
    if (finished) await this.deps.announce(finished);
    return true;
  }
}
