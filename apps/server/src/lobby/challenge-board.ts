import { randomUUID } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { Seat } from '@iron-curtain/game';
import { CHALLENGES_EVENT, type ChallengeList, type OpenChallenge } from '@iron-curtain/protocol';
import type { Context } from 'koa';
import type { ChallengePlaces } from '../edge/challenge-places.ts';
import type { HeldSockets } from '../edge/held-sockets.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import type { PresenceBook } from '../match/presence-book.ts';
import type { TimeSource } from '../ops/time.ts';
import type { AccountSeatStore, MatchRecord, MatchStore } from '../storage/index.ts';

/** At most this many open challenges are listed (newest first). */
const LISTED = 100;
/** How often the list is re-read while someone watches it: other instances' changes and absences. */
const REFRESH_MS = 2_000;

export interface ChallengeBoardDeps {
  matches: Pick<MatchStore, 'listPublicMatches'>;
  presence: PresenceBook;
  time: TimeSource;
  /** Since when a disconnected seat counts as away (the game service's reckoning). */
  awaySince: (match: MatchRecord, seat: Seat) => number;
  /** Open challenges each address has listed, at most OPEN_CHALLENGES_PER_ADDRESS (across instances with Redis). */
  places: ChallengePlaces;
  /** A challenge whose creator has been away longer than this leaves the list (CHALLENGE_AWAY_SECONDS). */
  awayMs: number;
  /** Who holds the creators' seats: an account's name is marked and linked in the list. */
  accountSeats: Pick<AccountSeatStore, 'holdersOf'>;
  /** Live lists each address follows, at most SOCKETS_PER_ADDRESS (across instances with Redis). */
  streams: HeldSockets;
  refreshMs?: number;
}

/**
 * The open challenges: waiting 'open' matches whose creator is here or was away only briefly.
 * The list is read from the store (so every instance lists the same matches) and pushed to the
 * home pages that follow it as server-sent events, when it changes.
 */
export class ChallengeBoard {
  private readonly streams = new Set<PassThrough>();
  private last = '';
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | null = null;
  private again = false;

  constructor(private readonly deps: ChallengeBoardDeps) {}

  async list(): Promise<ChallengeList> {
    const { matches, presence, time, awaySince, awayMs, accountSeats } = this.deps;
    const now = time.now();
    const waiting = await matches.listPublicMatches({
      status: 'waiting',
      limit: LISTED,
      openOnly: true,
    });
    const holders = await accountSeats.holdersOf(waiting.map((m) => m.matchID));
    const challenges: OpenChallenge[] = [];
    for (const match of waiting) {
      const creator = match.players.find((p) => p.credentialsHash !== null);
      const free = match.players.find((p) => p.credentialsHash === null);
      if (!creator?.name || !free) continue;
      // A correspondence challenge waits for a taker without its creator at the page.
      const live = !match.daysPerTurn;
      const here = live && (await presence.everywhere(match.matchID)).seats[creator.seat] > 0;
      if (live && !here && now - awaySince(match, creator.seat) > awayMs) continue;
      challenges.push({
        matchID: match.matchID,
        side: free.side,
        creator: creator.name,
        creatorAccount:
          holders.find((h) => h.matchID === match.matchID && h.seat === creator.seat)?.username ??
          null,
        variants: match.variants,
        deck: { name: match.deck.name, version: match.deck.version },
        clockMinutes: match.clock && live ? Math.round(match.clock.perPlayerMs / 60_000) : null,
        daysPerTurn: match.daysPerTurn ?? null,
        ...(match.rated ? { rated: true } : {}),
        createdAt: match.createdAt,
      });
    }
    return { challenges, at: new Date(now).toISOString() };
  }

  /**
   * Creates an open challenge for an address that has not its share listed yet: its place is
   * taken before the match exists, so requests sent together cannot all pass the check.
   */
  async create<T extends { matchID: string }>(
    address: string,
    create: () => Promise<T>,
  ): Promise<T> {
    const place = await this.deps.places.take(
      address,
      async () => new Set((await this.list()).challenges.map((c) => c.matchID)),
    );
    if (!place) {
      throw new LobbyError(
        429,
        'TOO_MANY_CHALLENGES',
        'this address has its share of open challenges listed; wait until one is taken or cancel one',
      );
    }
    let created: T;
    try {
      created = await create();
    } catch (error) {
      await place.release();
      throw error;
    }
    await place.named(created.matchID);
    this.changed();
    return created;
  }

  /** Something that may change the list happened here: tell the followers if it did. */
  changed(): void {
    if (this.streams.size === 0) return;
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = this.push()
      .catch(() => undefined)
      .finally(() => {
        this.refreshing = null;
        if (this.again) {
          this.again = false;
          this.changed();
        }
      });
  }

  /** GET /api/challenges/stream: the list now, then each time it changes (server-sent events). */
  async follow(ctx: Context): Promise<void> {
    if (ctx.method === 'HEAD') {
      ctx.type = 'text/event-stream';
      ctx.status = 200;
      return;
    }
    const address = ctx.ip;
    const stream = new PassThrough();
    const id = randomUUID();
    if (!(await this.deps.streams.take(address, id))) {
      throw new LobbyError(429, 'RATE_LIMITED', 'too many live lists open from this address');
    }
    this.streams.add(stream);
    const stop = () => {
      this.deps.streams.release(address, id);
      this.streams.delete(stream);
      stream.end();
      if (this.streams.size === 0) {
        this.stopTimer();
        this.last = '';
      }
    };
    ctx.req.once('close', stop);
    // A client gone while its place was taken: give the place back at once.
    if (ctx.req.socket.destroyed) stop();
    ctx.compress = false;
    ctx.set('Cache-Control', 'no-cache');
    // nginx buffers proxied answers by default: an event would wait there.
    ctx.set('X-Accel-Buffering', 'no');
    ctx.type = 'text/event-stream';
    ctx.status = 200;
    ctx.body = stream;
    const list = await this.list();
    // The first follower's list is the news to compare with; later ones may get a repeat.
    if (this.last === '') this.last = JSON.stringify(list.challenges);
    stream.write(`event: ${CHALLENGES_EVENT}\ndata: ${JSON.stringify(list)}\n\n`);
    this.startTimer();
  }

  close(): void {
    this.stopTimer();
    for (const stream of this.streams) stream.end();
    this.streams.clear();
  }

  private async push(): Promise<void> {
    const list = await this.list();
    // The time changes every read: only a change of the challenges themselves is news.
    const key = JSON.stringify(list.challenges);
    if (key === this.last) return;
    this.last = key;
    const event = `event: ${CHALLENGES_EVENT}\ndata: ${JSON.stringify(list)}\n\n`;
    for (const stream of this.streams) stream.write(event);
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      // A comment line keeps proxies from closing a quiet stream.
      for (const stream of this.streams) stream.write(': still here\n\n');
      this.changed();
    }, this.deps.refreshMs ?? REFRESH_MS);
    this.timer.unref();
  }

  private stopTimer(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
