import { isMatchId, parseInviteLink, profilePath } from '@iron-curtain/protocol';

/** The pages of the client, read from the address bar. */
export type Route =
  | { page: 'home' }
  | { page: 'join'; matchID: string; invite: string | null }
  | { page: 'watch'; matchID: string }
  | { page: 'match'; matchID: string }
  | { page: 'rules' }
  | { page: 'tutorial' }
  | { page: 'hotseat' }
  | { page: 'replay'; matchID: string }
  | { page: 'replayImport' }
  | { page: 'decks' }
  | { page: 'signIn' }
  | { page: 'signUp' }
  | { page: 'account' }
  | { page: 'profile'; username: string }
  | { page: 'notFound'; path: string };

export const paths = {
  home: () => '/',
  rules: () => '/rules',
  tutorial: () => '/tutorial',
  hotseat: () => '/hotseat',
  replay: (matchID: string) => `/replay/${encodeURIComponent(matchID)}`,
  replayImport: () => '/replay',
  decks: () => '/decks',
  signIn: () => '/sign-in',
  signUp: () => '/sign-up',
  account: () => '/account',
  profile: profilePath,
  watch: (matchID: string) => `/watch/${encodeURIComponent(matchID)}`,
  match: (matchID: string) => `/match/${encodeURIComponent(matchID)}`,
};

/** Reads the address bar. The invite token travels in the fragment: /join/<matchID>#<invite>. */
export function parseRoute(pathname: string, hash = ''): Route {
  let parts: string[];
  try {
    parts = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return { page: 'notFound', path: pathname };
  }
  if (parts.length === 0) return { page: 'home' };
  if (parts.length === 1) {
    const [single] = parts;
    if (single === 'rules' || single === 'tutorial' || single === 'hotseat')
      return { page: single };
    if (single === 'replay') return { page: 'replayImport' };
    if (single === 'decks') return { page: 'decks' };
    if (single === 'sign-in') return { page: 'signIn' };
    if (single === 'sign-up') return { page: 'signUp' };
    if (single === 'account') return { page: 'account' };
  }
  const [page, matchID] = parts;
  if (parts.length === 2 && page === '@' && matchID) return { page: 'profile', username: matchID };
  if (parts.length === 2 && matchID && isMatchId(matchID)) {
    if (page === 'join') {
      let invite: string | null = null;
      try {
        invite = parseInviteLink(pathname, hash)?.invite ?? null;
      } catch {
        // A fragment that is not valid percent-encoding: an incomplete link.
      }
      return { page, matchID, invite };
    }
    if (page === 'watch' || page === 'match' || page === 'replay') return { page, matchID };
  }
  return { page: 'notFound', path: pathname };
}
