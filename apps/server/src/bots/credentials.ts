import { createHmac } from 'node:crypto';
import { BOT_LEVELS, type BotLevel } from '@iron-curtain/bots';
import type { Seat } from '@iron-curtain/game';
import { secretMatches } from '../secrets.ts';
import type { MatchRecord } from '../storage/index.ts';

/**
 * A computer seat's credentials, derived from the match's secret seed: only the server
 * can compute them, so the seat's stored hash marks it as a bot's (and its level)
 * without a column or a secret of its own.
 */
export const botCredentials = (seed: string, seat: Seat, level: BotLevel): string =>
  createHmac('sha256', seed).update(`bot-seat:${seat}:${level}`).digest('base64url');

export const botName = (level: BotLevel): string => `Computer (${level})`;

export interface BotSeat {
  seat: Seat;
  level: BotLevel;
  credentials: string;
}

/** The seats of a match that computer players hold. */
export function botSeatsOf(match: MatchRecord): BotSeat[] {
  return match.players.flatMap((player) => {
    for (const level of BOT_LEVELS) {
      const credentials = botCredentials(match.seed, player.seat, level);
      if (secretMatches(credentials, player.credentialsHash)) {
        return [{ seat: player.seat, level, credentials }];
      }
    }
    return [];
  });
}
