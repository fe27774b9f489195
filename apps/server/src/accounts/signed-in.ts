import type { SignedInAccount } from '../lobby/signed-in-seats.ts';
import type { TimeSource } from '../ops/time.ts';
import type { SessionStore } from '../storage/index.ts';
import { SESSION_IDLE_MS, sessionHash, sessionIDOf } from './session-cookie.ts';

/**
 * The account of a request's live session (its last use moved on), for the parts outside the
 * account routes; a request without the cookie costs no read.
 */
export function signedInAccount(
  sessions: Pick<SessionStore, 'touchSession'>,
  time: TimeSource,
): SignedInAccount {
  return async (ctx) => {
    const id = sessionIDOf(ctx);
    if (!id) return undefined;
    const now = time.now();
    const found = await sessions.touchSession(
      sessionHash(id),
      new Date(now).toISOString(),
      new Date(now - SESSION_IDLE_MS).toISOString(),
    );
    return found?.accountID;
  };
}
