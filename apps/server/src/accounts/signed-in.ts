import type { Context } from 'koa';
import type { SignedInAccount } from '../lobby/signed-in-seats.ts';
import type { SessionLookup } from '../match/session-ties.ts';
import type { TimeSource } from '../ops/time.ts';
import type { SessionStore } from '../storage/index.ts';
import { SESSION_IDLE_MS, sessionHash, sessionIDOf, sessionIDOfHeader } from './session-cookie.ts';

type Sessions = Pick<SessionStore, 'touchSession'>;

/** The account of a live session by its hash, its last use moved on. */
function touch(sessions: Sessions, time: TimeSource, hash: string) {
  const now = time.now();
  return sessions.touchSession(
    hash,
    new Date(now).toISOString(),
    new Date(now - SESSION_IDLE_MS).toISOString(),
  );
}

/**
 * The account of a request's live session, for the parts outside the account routes; a
 * request without the cookie costs no read.
 */
export function signedInAccount(sessions: Sessions, time: TimeSource): SignedInAccount {
  return async (ctx: Context) => {
    const id = sessionIDOf(ctx);
    return id ? (await touch(sessions, time, sessionHash(id)))?.accountID : undefined;
  };
}

/**
 * The sessions of the game service's sockets: the one a handshake's cookie carries, and which
 * are still live. A socket at the table is a use of its session: it keeps it from idling out.
 */
export function socketSessions(sessions: Sessions, time: TimeSource): SessionLookup {
  return {
    async tieOf(cookieHeader) {
      const id = sessionIDOfHeader(cookieHeader);
      if (!id) return undefined;
      const hash = sessionHash(id);
      const found = await touch(sessions, time, hash);
      return found && { accountID: found.accountID, sessionHash: hash };
    },
    async live(hashes) {
      const found = await Promise.all(hashes.map((hash) => touch(sessions, time, hash)));
      return new Set(hashes.filter((_, i) => found[i] !== undefined));
    },
  };
}
