import type { GameSocket, SocketData } from '../edge/game-sockets.ts';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';

/** A signed-in player's socket: the account and the session it was tied to at the handshake. */
export type SessionTie = NonNullable<SocketData['tie']>;

/** The accounts' part, as the game service asks it. */
export interface SessionLookup {
  /** The live session a handshake's Cookie header carries, if any. */
  tieOf(cookieHeader: string | undefined): Promise<SessionTie | undefined>;
  /** Which of these sessions are still live (not ended, idle, or of a disabled account). */
  live(sessionHashes: readonly string[]): Promise<Set<string>>;
}

/** Tied sockets' sessions are read again this often: ends made on other instances or by the script. */
export const SESSION_RECHECK_MS = 60_000;

/**
 * Ties the socket of a signed-in player to its session at the handshake (`socket.data.tie`).
 * The tie names the account; it never holds a seat: every seat action is still checked against
 * the seat's credentials, which hold the seat whether or not the player is signed in. A session
 * that ends (sign-out, sign-out everywhere, a disabled account) unties its sockets, which stay
 * connected and keep their seats: at once on the instance that ended it, within
 * SESSION_RECHECK_MS on the others. The recheck's timer runs only while a tied socket is
 * connected here: an instance of guests reads no sessions.
 */
export class SessionTies {
  /** The connected sockets that are tied, so that a recheck or an end reads only those. */
  private readonly tied = new Set<GameSocket>();
  private timer: unknown;
  /** A recheck is reading the store: the timer is armed again when it is done, not before. */
  private rechecking = false;
  private stopped = false;

  constructor(
    private readonly deps: {
      lookup: SessionLookup;
      time: TimeSource;
      logger: Logger;
    },
  ) {}

  /** The handshake: the session its cookie carries, if live. A store failure leaves it untied. */
  async tie(socket: GameSocket): Promise<void> {
    try {
      const tie = await this.deps.lookup.tieOf(socket.handshake.headers.cookie);
      if (tie) socket.data.tie = tie;
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'session tie failed');
    }
  }

  /** A socket past the handshake: if tied, its session is rechecked from now on. */
  connected(socket: GameSocket): void {
    if (!socket.data.tie) return;
    this.tied.add(socket);
    this.arm();
  }

  /** A socket has gone: the recheck stops with the last tied one. */
  left(socket: GameSocket): void {
    if (this.tied.delete(socket) && this.tied.size === 0) this.disarm();
  }

  /** Unties the sockets of an ended session, or of every session of an account, here. */
  ended(which: { accountID: string } | { sessionHash: string }): void {
    for (const socket of [...this.tied]) {
      const tie = socket.data.tie as SessionTie;
      const match =
        'accountID' in which
          ? tie.accountID === which.accountID
          : tie.sessionHash === which.sessionHash;
      if (match) this.untie(socket);
    }
  }

  /** No more rechecks (the instance is closing). */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /** Unties every socket whose session is no longer live. */
  private async recheck(): Promise<void> {
    const tied = [...this.tied];
    if (tied.length === 0) return;
    try {
      const hashes = [...new Set(tied.map((s) => (s.data.tie as SessionTie).sessionHash))];
      const live = await this.deps.lookup.live(hashes);
      for (const socket of tied) {
        if (this.tied.has(socket) && !live.has((socket.data.tie as SessionTie).sessionHash)) {
          this.untie(socket);
        }
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'session recheck failed');
    }
  }

  private untie(socket: GameSocket): void {
    socket.data.tie = undefined;
    this.left(socket);
  }

  /** Reads the tied sockets' sessions again in SESSION_RECHECK_MS, and so on while any is tied. */
  private arm(): void {
    if (this.timer !== undefined || this.rechecking || this.stopped) return;
    this.timer = this.deps.time.setTimer(() => {
      this.timer = undefined;
      this.rechecking = true;
      void this.recheck().finally(() => {
        this.rechecking = false;
        if (this.tied.size > 0) this.arm();
      });
    }, SESSION_RECHECK_MS);
  }

  private disarm(): void {
    if (this.timer !== undefined) this.deps.time.clearTimer(this.timer);
    this.timer = undefined;
  }
}
