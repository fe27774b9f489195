import type { BotLevel } from '@iron-curtain/bots';
import type { RulesContext, Seat } from '@iron-curtain/game';
import {
  applyUpdate,
  GAME_NAMESPACE,
  type Presence,
  type RefusedMessage,
  type SyncMessage,
  type UpdateMessage,
} from '@iron-curtain/protocol';
import { io, type Socket } from 'socket.io-client';
import type { Logger } from '../ops/logger.ts';
import type { BotSeat } from './credentials.ts';
import type { BotThinker } from './thinker.ts';

type Frame = SyncMessage['state'];

const RETRY_MS = 1000;

export interface BotPlayerOptions {
  /** The server's own address, as a client reaches it. */
  url: string;
  matchID: string;
  bot: BotSeat;
  thinker: BotThinker;
  /** Pause before each move, so people can follow a computer's play. */
  moveDelayMs: number;
  logger: Logger;
  /** Called once when the bot stops for good (match over, seat refused). */
  onStop: () => void;
}

/**
 * A computer player is a client of the game service like any other: it syncs with its
 * seat's credentials, receives only that seat's frames, and sends moves through the same
 * validated path as a person. It thinks in the shared worker pool.
 */
export class BotPlayer {
  private readonly socket: Socket;
  private frame: Frame | undefined;
  private rules: RulesContext | undefined;
  private thinking = false;
  private stopped = false;

  constructor(private readonly options: BotPlayerOptions) {
    const { url, matchID } = options;
    this.socket = io(`${url}${GAME_NAMESPACE}`, {
      transports: ['websocket'],
      query: { matchID },
      reconnectionDelay: 200,
    });
    this.socket.on('connect', () => this.sync());
    this.socket.on('sync', (message: SyncMessage) => {
      this.rules = message.rules;
      this.see(message.state);
    });
    this.socket.on('update', (message: UpdateMessage) => {
      const next = this.frame && applyUpdate(this.frame, message);
      // An update that does not fit the state this bot holds: ask for the whole picture.
      if (next) this.see(next);
      else this.sync();
    });
    this.socket.on('presence', (message: Presence) => {
      if (message.status === 'finished') this.stop();
    });
    this.socket.on('refused', (error: RefusedMessage) => {
      if (error.code === 'UNAUTHORIZED' || error.code === 'UNKNOWN_MATCH') return this.stop();
      options.logger.debug({ matchID, code: error.code }, `bot refused: ${error.message}`);
      // Most refusals come with a re-sync; a rate limit does not: ask again a moment later.
      setTimeout(() => {
        if (!this.stopped) this.sync();
      }, RETRY_MS).unref();
    });
  }

  get level(): BotLevel {
    return this.options.bot.level;
  }

  private sync(): void {
    const { matchID, bot } = this.options;
    this.socket.emit('sync', { matchID, playerID: bot.seat, credentials: bot.credentials });
  }

  private see(frame: Frame): void {
    if (this.frame && frame.stateID < this.frame.stateID) return;
    this.frame = frame;
    if (frame.G.result !== null) this.stop();
    else void this.play();
  }

  private async play(): Promise<void> {
    const { matchID, bot, thinker, moveDelayMs, logger } = this.options;
    const { frame, rules } = this;
    const view = frame?.G;
    if (this.stopped || this.thinking || !frame || !rules || view?.decision?.seat !== bot.seat)
      return;
    this.thinking = true;
    try {
      const started = Date.now();
      // Seeded from the seat's secret credentials: an opponent cannot replay the bot's dice.
      const seed = `${bot.credentials}:${frame.stateID}`;
      const move = await thinker.choose(rules, frame.G, bot.seat as Seat, bot.level, seed);
      const pause = moveDelayMs - (Date.now() - started);
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      // A newer state arrived meanwhile (a re-sync): think again on that one.
      if (this.stopped || this.frame !== frame) return;
      this.socket.emit('update', {
        matchID,
        stateID: frame.stateID,
        action: {
          type: 'MAKE_MOVE',
          payload: { type: move.move, args: move.args, playerID: bot.seat },
        },
      });
    } catch (error) {
      if (!this.stopped)
        logger.error({ err: error, matchID, seat: bot.seat }, 'bot failed to move');
    } finally {
      this.thinking = false;
      if (this.frame !== frame) void this.play();
    }
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.socket.close();
    this.options.onStop();
  }
}
