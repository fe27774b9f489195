import type { MatchResult } from './storage/index.ts';

/**
 * The one way a match ends (see GameService.finish): the result stored with the clock
 * stopped, the timers cleared, players and spectators told. False when it had already ended.
 * A result of null closes a match that never began (its creator left before anyone joined).
 */
export type FinishMatch = (
  matchID: string,
  result: MatchResult | null,
  now: number,
) => Promise<boolean>;
