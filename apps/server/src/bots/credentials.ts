import { createHmac } from 'node:crypto';
import { BOT_LEVELS, type BotLevel } from '@iron-curtain/bots';
import type { Seat } from '@iron-curtain/game';
import { randomToken, secretMatches } from '../ops/secrets.ts';
import type { MatchRecord, SecretStore } from '../storage/index.ts';

/** The server secret computer players' credentials are derived from (see `SecretStore.serverSecret`). */
const KEY_NAME = 'bot-credentials';

const hmac = (key: string, message: string) =>
  createHmac('sha256', key).update(message).digest('base64url');

const keyedCredentials = (key: string, matchID: string, seat: Seat, level: BotLevel) =>
  hmac(key, `bot-seat:${matchID}:${seat}:${level}`);

/**
 * How matches created before the server key derived a computer seat's credentials: from the
 * match's seed, which the replay record publishes once the match is over. Still recognised,
 * so that those matches play on; a finished match's seat opens nothing its record does not
 * show, and its rematch's computer seat gets credentials under the key.
 */
const seededCredentials = (seed: string, seat: Seat, level: BotLevel) =>
  hmac(seed, `bot-seat:${seat}:${level}`);

export const botName = (level: BotLevel): string => `Computer (${level})`;

export interface BotSeat {
  seat: Seat;
  level: BotLevel;
  credentials: string;
}

/**
 * Computer seats' credentials: an HMAC of the match id, seat and level under a key that never
 * leaves the server (kept in the store, so every instance sharing it derives the same). Only
 * the server can compute them, so a seat's stored hash marks it as a computer's, and its level,
 * without a column of its own.
 */
export class BotCredentials {
  private key: Promise<string> | undefined;

  constructor(private readonly secrets: SecretStore) {}

  private keyOf(): Promise<string> {
    this.key ??= this.secrets.serverSecret(KEY_NAME, randomToken(32)).catch((error: unknown) => {
      // The store may answer next time.
      this.key = undefined;
      throw error;
    });
    return this.key;
  }

  async of(matchID: string, seat: Seat, level: BotLevel): Promise<string> {
    return keyedCredentials(await this.keyOf(), matchID, seat, level);
  }

  /**
   * The seats of a match that computer players hold. A computer seat always bears its level's
   * name, so only a seat so named is checked (a person may take that name; the credentials
   * still decide): a match of two people costs no HMAC on every sync.
   */
  async seatsOf(match: MatchRecord): Promise<BotSeat[]> {
    const levels = (name: string | null) => BOT_LEVELS.filter((level) => name === botName(level));
    if (match.players.every((player) => levels(player.name).length === 0)) return [];
    const key = await this.keyOf();
    return match.players.flatMap((player) => {
      for (const level of levels(player.name)) {
        for (const credentials of [
          keyedCredentials(key, match.matchID, player.seat, level),
          seededCredentials(match.seed, player.seat, level),
        ]) {
          if (secretMatches(credentials, player.credentialsHash)) {
            return [{ seat: player.seat, level, credentials }];
          }
        }
      }
      return [];
    });
  }
}
