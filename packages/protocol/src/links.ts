/**
 * The links the lobby hands out. The invite token travels in the URL fragment, which
 * browsers never send to a server, so it stays out of access logs and Referer headers.
 */
export const invitePath = (matchID: string, invite: string): string =>
  `/join/${encodeURIComponent(matchID)}#${encodeURIComponent(invite)}`;

export const spectatePath = (matchID: string): string => `/watch/${encodeURIComponent(matchID)}`;

/** Reads an invite link's path and fragment (`location.pathname`, `location.hash`). */
export function parseInviteLink(
  pathname: string,
  hash: string,
): { matchID: string; invite: string } | null {
  const match = /^\/join\/([^/]+)\/?$/.exec(pathname);
  const invite = hash.replace(/^#/, '');
  if (!match?.[1] || invite === '') return null;
  return { matchID: decodeURIComponent(match[1]), invite: decodeURIComponent(invite) };
}
