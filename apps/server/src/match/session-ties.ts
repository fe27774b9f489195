import type { GameNamespace, GameSocket, SocketData } from '../edge/game-sockets.ts';
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
 * SESSION_RECHECK_MS on the others.
 */
export class SessionTies {
  private timer: unknown;

  constructor(
    private readonly deps: {
      nsp: GameNamespace;
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

  /** Unties the sockets of an ended session, or of every session of an account, here. */
  ended(which: { accountID: string } | { sessionHash: string }): void {
    for (const socket of this.deps.nsp.sockets.values()) {
      const tie = socket.data.tie;
      if (!tie) continue;
      const match =
        'accountID' in which
          ? tie.accountID === which.accountID
          : tie.sessionHash === which.sessionHash;
      if (match) socket.data.tie = undefined;
    }
  }

  /** Reads the tied sockets' sessions again, now and every SESSION_RECHECK_MS, until stopped. */
  start(): void {
    this.timer = this.deps.time.setTimer(() => {
      void this.recheck().finally(() => {
        if (this.timer !== undefined) this.start();
      });
    }, SESSION_RECHECK_MS);
  }

  stop(): void {
    if (this.timer !== undefined) this.deps.time.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** Unties every socket whose session is no longer live. */
  async recheck(): Promise<void> {
    const tied = [...this.deps.nsp.sockets.values()].filter((s) => s.data.tie);
    if (tied.length === 0) return;
    try {
      const hashes = [...new Set(tied.map((s) => (s.data.tie as SessionTie).sessionHash))];
      const live = await this.deps.lookup.live(hashes);
      for (const socket of tied) {
        if (socket.data.tie && !live.has(socket.data.tie.sessionHash)) socket.data.tie = undefined;
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'session recheck failed');
    }
  }
}
