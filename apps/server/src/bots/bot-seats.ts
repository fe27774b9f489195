import type { Logger } from '../ops/logger.ts';
import type { MatchRecord, MatchStore } from '../storage/index.ts';
import { BotPlayer } from './bot-player.ts';
import type { BotCredentials } from './credentials.ts';
import { BotThinker } from './thinker.ts';

export interface BotSeatsConfig {
  BOT_THREADS: number;
  BOT_MOVE_DELAY_MS: number;
  BOT_MAX_MATCHES: number;
}

/**
 * Runs the computer players of the matches this instance serves. A bot starts when its
 * seat is taken, and again after a restart as soon as anyone syncs with its match.
 */
export class BotSeats {
  private readonly thinker: BotThinker;
  /** Bot players by match id. */
  private readonly players = new Map<string, BotPlayer[]>();
  private url: string | undefined;
  /** Computer matches being created: their places are taken before their players start. */
  private starting = 0;

  constructor(
    private readonly config: BotSeatsConfig,
    private readonly matches: Pick<MatchStore, 'getMatch'>,
    private readonly credentials: BotCredentials,
    private readonly logger: Logger,
  ) {
    this.thinker = new BotThinker(config.BOT_THREADS);
  }

  /** Matches with a computer player running here. */
  get activeMatches(): number {
    return this.players.size;
  }

  get full(): boolean {
    return this.players.size + this.starting >= this.config.BOT_MAX_MATCHES;
  }

  /**
   * Creates a match with computer players and starts them before answering, holding a place
   * meanwhile: the next request sees the pool as it is, even one sent at the same time.
   */
  async create<T extends { matchID: string }>(create: () => Promise<T>): Promise<T> {
    this.starting += 1;
    try {
      const created = await create();
      // The match exists whatever happens here: its bots start again when someone syncs.
      await this.ensure(created.matchID).catch((error) =>
        this.logger.error({ err: error, matchID: created.matchID }, 'bots failed to start'),
      );
      return created;
    } finally {
      this.starting -= 1;
    }
  }

  /** Bots connect to the server's own address, known once it listens. */
  serve(url: string): void {
    this.url = url;
  }

  /**
   * Starts the computer players of a match in play, unless they already run. `known`: the
   * match's record as the caller just read it (a socket's sync), so none is read again.
   */
  async ensure(matchID: string, known?: MatchRecord): Promise<void> {
    if (!this.url || this.players.has(matchID)) return;
    const match = known ?? (await this.matches.getMatch(matchID));
    if (match?.status !== 'playing') return;
    const bots = await this.credentials.seatsOf(match);
    if (bots.length === 0 || this.players.has(matchID)) return;
    const url = this.url;
    const stop = () => this.players.delete(matchID);
    this.players.set(
      matchID,
      bots.map(
        (bot) =>
          new BotPlayer({
            url,
            matchID,
            bot,
            thinker: this.thinker,
            moveDelayMs: this.config.BOT_MOVE_DELAY_MS,
            logger: this.logger,
            onStop: stop,
          }),
      ),
    );
    this.logger.info({ matchID, bots: bots.map((b) => `${b.seat}:${b.level}`) }, 'bots playing');
  }

  async close(): Promise<void> {
    for (const players of [...this.players.values()]) for (const p of players) p.stop();
    await this.thinker.close();
  }
}
