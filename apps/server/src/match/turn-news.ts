import type { Seat } from '@iron-curtain/game';
import type { Logger } from '../ops/logger.ts';
import type { MatchRecord } from '../storage/index.ts';
import type { PresenceBook } from './presence-book.ts';

/** What a match's seats are told outside the table (the push notifier); it never rejects. */
export interface TurnNotifier {
  yourTurn(matchID: string, seat: Seat): Promise<void>;
  matchEnded(matchID: string): Promise<void>;
  deadlineNear(matchID: string, seat: Seat, deadline: string): Promise<void>;
}

export interface TurnNewsDeps {
  notifier: TurnNotifier | undefined;
  presence: PresenceBook;
  logger: Logger;
}

/**
 * Tells the seats of a room's match what happened while they may be away: the decision passed
 * to them, their correspondence deadline near, the match ended. Fire and forget: a move is acknowledged without waiting for it.
 */
export class TurnNews {
  constructor(private readonly deps: TurnNewsDeps) {}

  /**
   * The decision passed to `seat`: told in correspondence play, and in live play only when
   * none of the seat's sockets is connected on any instance (a seat at the table sees it).
   */
  decisionPassed(match: MatchRecord, seat: Seat): void {
    const { notifier, presence, logger } = this.deps;
    if (!notifier) return;
    const { matchID } = match;
    void (async () => {
      // A socket here settles it without asking the other instances.
      const atTable = async () =>
        presence.here(matchID).seats[seat] > 0 ||
        (await presence.everywhere(matchID)).seats[seat] > 0;
      if (!match.daysPerTurn && (await atTable())) return;
      await notifier.yourTurn(matchID, seat);
    })().catch((error) => logger.error({ err: error, matchID }, 'turn news failed'));
  }

  /** The seat to move's correspondence deadline (ISO) is a day ahead. */
  deadlineNear(matchID: string, seat: Seat, deadline: string): void {
    void this.deps.notifier?.deadlineNear(matchID, seat, deadline);
  }

  /** The match ended with a result: both seats hear whether they won or lost. */
  ended(match: MatchRecord): void {
    if (!match.result) return;
    void this.deps.notifier?.matchEnded(match.matchID);
  }
}
