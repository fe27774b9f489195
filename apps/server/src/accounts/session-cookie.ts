import type { Context } from 'koa';
import { hashSecret, randomToken } from '../ops/secrets.ts';

/** The cookie holding a signed-in browser's session id (HttpOnly: no script reads it). */
export const SESSION_COOKIE = 'ic_session';
/** A session nobody used for this long has ended. */
export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000;

/** A new session id: 128 random bits. The store keeps only its hash. */
export const newSessionID = (): string => randomToken(16);
export const sessionHash = (sessionID: string): string => hashSecret(sessionID);

/** The session id the request's cookie holds, if any. */
export const sessionIDOf = (ctx: Context): string | undefined =>
  ctx.cookies.get(SESSION_COOKIE) || undefined;

/** The session id a raw Cookie header holds (a socket's handshake), if any. */
export function sessionIDOfHeader(cookieHeader: string | undefined): string | undefined {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0 && pair.slice(0, at).trim() === SESSION_COOKIE) {
      return pair.slice(at + 1).trim() || undefined;
    }
  }
  return undefined;
}

/**
 * Sets (or, with `undefined`, clears) the session cookie: HttpOnly, SameSite=Lax, Path=/,
 * Secure when browsers reach the site over https. Written by hand: Koa refuses a Secure cookie
 * on a connection it does not see as https, as behind a TLS proxy it does not trust.
 */
export function setSessionCookie(
  ctx: Context,
  sessionID: string | undefined,
  secure: boolean,
): void {
  const maxAge = sessionID === undefined ? 0 : SESSION_IDLE_MS / 1000;
  const parts = [
    `${SESSION_COOKIE}=${sessionID ?? ''}`,
    'Path=/',
    `Max-Age=${maxAge}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(secure ? ['Secure'] : []),
  ];
  ctx.append('Set-Cookie', parts.join('; '));
}

/** A browser's short name for the settings page ("Firefox on Linux"); never used to decide anything. */
export function agentName(userAgent: string): string {
  const browser =
    [
      ['Edg/', 'Edge'],
      ['OPR/', 'Opera'],
      ['Firefox/', 'Firefox'],
      ['Chrome/', 'Chrome'],
      ['Safari/', 'Safari'],
    ].find(([mark]) => userAgent.includes(mark as string))?.[1] ?? 'A browser';
  const system = [
    ['Android', 'Android'],
    ['iPhone', 'iOS'],
    ['iPad', 'iPadOS'],
    ['Windows', 'Windows'],
    ['Mac OS', 'macOS'],
    ['CrOS', 'ChromeOS'],
    ['Linux', 'Linux'],
  ].find(([mark]) => userAgent.includes(mark as string))?.[1];
  return system ? `${browser} on ${system}` : browser;
}
