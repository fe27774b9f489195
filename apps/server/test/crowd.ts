import type { Presence } from '@iron-curtain/protocol';
import { io, type Socket } from 'socket.io-client';
import { Arrivals } from './arrivals.ts';

/**
 * K spectators of one match, each on a socket of its own, counting every frame the crowd
 * receives by event name: what a test of the crowd's cost asserts with (issue 38, where
 * every join told everyone already watching, N(N+1)/2 presence frames for N spectators).
 */
export class Crowd {
  /** Frames all spectators received, by event name, since they started joining. */
  readonly frames: Record<string, number> = {};
  private readonly sockets: Socket[] = [];
  /** Each spectator's latest presence (from its sync or a presence frame). */
  private readonly latest = new Map<Socket, Presence>();
  private readonly arrivals = new Arrivals();

  private constructor(
    readonly url: string,
    readonly matchID: string,
  ) {}

  /**
   * Connects `k` spectators at once and resolves when every one of them is synced. `together`:
   * all connect first, then all ask to sync in one go (as a crowd back after a restart).
   */
  static async join(
    url: string,
    matchID: string,
    k: number,
    { together = false } = {},
  ): Promise<Crowd> {
    const crowd = new Crowd(url, matchID);
    if (together) await crowd.addTogether(k);
    else await crowd.add(k);
    return crowd;
  }

  /** `k` more spectators, at once; resolves when they are all synced. */
  async add(k: number): Promise<void> {
    const synced = Array.from({ length: k }, () => this.spectator());
    await Promise.all(synced);
  }

  private async addTogether(k: number): Promise<void> {
    const sockets = await Promise.all(
      Array.from({ length: k }, async () => {
        const socket = this.open();
        await new Promise<void>((resolve, reject) => {
          socket.once('connect_error', reject);
          socket.once('connect', () => resolve());
        });
        return socket;
      }),
    );
    const synced = sockets.map((socket) => new Promise((resolve) => socket.once('sync', resolve)));
    for (const socket of sockets) socket.emit('sync', { matchID: this.matchID, playerID: null });
    await Promise.all(synced);
  }

  private spectator(): Promise<void> {
    const socket = this.open();
    return new Promise<void>((resolve, reject) => {
      socket.once('connect_error', reject);
      socket.once('connect', () => socket.emit('sync', { matchID: this.matchID, playerID: null }));
      socket.once('sync', () => resolve());
    });
  }

  /** A spectator's socket, counting what it receives. */
  private open(): Socket {
    const socket = io(`${this.url}/game`, {
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      query: { matchID: this.matchID },
    });
    this.sockets.push(socket);
    socket.onAny((event: string, message: unknown) => {
      this.frames[event] = (this.frames[event] ?? 0) + 1;
      if (event === 'presence') this.latest.set(socket, message as Presence);
      if (event === 'sync') this.latest.set(socket, (message as { presence: Presence }).presence);
      this.arrivals.notify();
    });
    return socket;
  }

  /** Spectators connected now. */
  get size(): number {
    return this.sockets.filter((s) => s.connected).length;
  }

  /** Presence frames the crowd received so far. */
  get presenceFrames(): number {
    return this.frames.presence ?? 0;
  }

  /** The spectator counts the connected spectators were last told, one per spectator. */
  toldCounts(): number[] {
    return this.sockets.filter((s) => s.connected).map((s) => this.latest.get(s)?.spectators ?? -1);
  }

  /** The presence the connected spectators were last told, one per spectator. */
  told(): (Presence | undefined)[] {
    return this.sockets.filter((s) => s.connected).map((s) => this.latest.get(s));
  }

  /** Closes the last `k` spectators. */
  leave(k: number): void {
    for (const socket of this.sockets.splice(this.sockets.length - k, k)) socket.close();
  }

  /** Resolves when `predicate` holds, checked after every frame; rejects after `ms`. */
  until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
    return this.arrivals.until(predicate, what, ms);
  }

  close(): void {
    for (const socket of this.sockets.splice(0)) socket.close();
  }
}
