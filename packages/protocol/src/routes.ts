/**
 * The lobby's HTTP routes, defined once: `route` is the server's pattern (Koa router), `path`
 * builds the client's URL. Match routes take the match ID as `:id`.
 */
const matchRoute = (suffix: string) => ({
  route: `/api/matches/:id${suffix}`,
  path: (matchID: string): string => `/api/matches/${encodeURIComponent(matchID)}${suffix}`,
});

export const apiRoutes = {
  decks: '/api/decks',
  matches: '/api/matches',
  botMatches: '/api/bot-matches',
  challenges: '/api/challenges',
  challengeStream: '/api/challenges/stream',
  myGames: '/api/my-games',
  handovers: '/api/handovers',
  handoverRedeem: '/api/handovers/redeem',
  pushKey: '/api/push/key',
  account: '/api/account',
  accountSeats: '/api/account/seats',
  accountExport: '/api/account/export',
  passkeyOptions: '/api/account/passkeys/options',
  passkeys: '/api/account/passkeys',
  passkeyCodes: '/api/account/passkey-codes',
  passkeyCodeOptions: '/api/account/passkey-codes/options',
  passkeyCodePasskey: '/api/account/passkey-codes/passkey',
  signUpOptions: '/api/account/sign-up/options',
  signUp: '/api/account/sign-up',
  signInOptions: '/api/account/sign-in/options',
  signIn: '/api/account/sign-in',
  recoverySignIn: '/api/account/sign-in/recovery',
  signOut: '/api/account/sign-out',
  signOutEverywhere: '/api/account/sign-out-everywhere',
  pushSubscriptions: '/api/push/subscriptions',
  profile: {
    route: '/api/profiles/:username',
    path: (username: string): string => `/api/profiles/${encodeURIComponent(username)}`,
  },
  match: matchRoute(''),
  join: matchRoute('/join'),
  leave: matchRoute('/leave'),
  rematch: matchRoute('/rematch'),
  claim: matchRoute('/claim'),
  record: matchRoute('/record'),
} as const;

/** The server-sent event carrying the open challenges (a ChallengeList as JSON). */
export const CHALLENGES_EVENT = 'challenges';
