import { otherSeat, type Seat } from '@iron-curtain/game';
import type { claimWinRequestSchema } from '@iron-curtain/protocol';
import type { z } from 'zod';
import { LobbyError } from '../edge/lobby-error.ts';
import { flagFallen } from '../match/clock-record.ts';
import type { FinishMatch } from '../match/ending.ts';
import type { PresenceBook } from '../match/presence-book.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, MatchResult, MatchStore } from '../storage/index.ts';

export interface RefereeDeps {
  matches: Pick<MatchStore, 'getMatch'>;
  presence: PresenceBook;
  time: TimeSource;
  graceMs: number;
  /** Since when a disconnected seat counts as away (ms since the epoch). */
  awaySince: (match: MatchRecord, seat: Seat) => number;
  finish: FinishMatch;
}

/**
 * Ends a match in play on a seat's claim: the opponent's clock ran out ('timeout'), or the
 * opponent has been disconnected longer than the grace period ('abandoned'). A connected
 * opponent, or one away for less than the grace period, keeps the match going; so does any
 * opponent of correspondence play, where being away is the rule.
 */
export class Referee {
  constructor(private readonly deps: RefereeDeps) {}

  async claim(
    matchID: string,
    request: z.output<typeof claimWinRequestSchema>,
  ): Promise<MatchRecord> {
    const { matches, presence, time, graceMs } = this.deps;
    const match = await matches.getMatch(matchID);
    if (!match) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
    const seat = match.players.find((p) => p.seat === request.seat);
    if (!seat || !secretMatches(request.credentials, seat.credentialsHash)) {
      throw new LobbyError(403, 'BAD_CREDENTIALS', 'these credentials do not hold that seat');
    }
    if (match.status !== 'playing') {
      throw new LobbyError(409, 'NOT_PLAYING', 'only a match in play can be claimed');
    }
    const opponent = otherSeat(request.seat);
    const now = time.now();
    let reason: MatchResult['reason'];
    if (match.clock && flagFallen(match.clock, now) === opponent) {
      reason = 'timeout';
    } else if (match.daysPerTurn) {
      throw new LobbyError(
        409,
        'NOT_CLAIMABLE',
        'a correspondence match cannot be claimed: your opponent has until the turn runs out',
      );
    } else {
      const attendance = await presence.everywhere(matchID);
      if (attendance.seats[opponent] > 0) {
        throw new LobbyError(409, 'OPPONENT_CONNECTED', 'your opponent is connected');
      }
      const waited = now - this.deps.awaySince(match, opponent);
      if (waited < graceMs) {
        const seconds = Math.ceil((graceMs - waited) / 1000);
        throw new LobbyError(
          409,
          'GRACE_NOT_OVER',
          `your opponent may still come back: you can claim the win in ${seconds} s`,
        );
      }
      reason = 'abandoned';
    }
    const result: MatchResult = { winner: request.seat, winnerSide: seat.side, reason };
    if (!(await this.deps.finish(matchID, result, now))) {
      throw new LobbyError(409, 'NOT_PLAYING', 'the match has just ended');
    }
    return (await matches.getMatch(matchID)) ?? match;
  }
}
