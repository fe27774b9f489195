import type { Route } from './routes.ts';

/**
 * Every page's code, each loaded on demand: the first download holds only the shell (React, the
 * texts' machinery, the router and the navigation), so the home page paints without the match
 * code and the match page without the home page's. The entry starts the current page's download
 * beside the texts' (preloadPage), so no page waits for one round trip after the other.
 */
export const pageLoaders = {
  home: () => import('../lobby/HomePage.tsx').then((m) => m.HomePage),
  join: () => import('../lobby/JoinPage.tsx').then((m) => m.JoinPage),
  match: () => import('../match/PlayPage.tsx').then((m) => m.PlayPage),
  watch: () => import('../match/MatchScreen.tsx').then((m) => m.MatchScreen),
  rules: () => import('../learn/RulesPage.tsx').then((m) => m.RulesPage),
  tutorial: () => import('../learn/TutorialPage.tsx').then((m) => m.TutorialPage),
  hotseat: () => import('../hotseat/HotseatPage.tsx').then((m) => m.HotseatPage),
  replay: () => import('../features/replay/ReplayPage.tsx').then((m) => m.ReplayPage),
  replayImport: () =>
    import('../features/replay/ReplayImportPage.tsx').then((m) => m.ReplayImportPage),
  decks: () => import('../features/decks/DeckUploadPage.tsx').then((m) => m.DeckUploadPage),
  signIn: () => import('../account/SignInPage.tsx').then((m) => m.SignInPage),
  signUp: () => import('../account/SignUpPage.tsx').then((m) => m.SignUpPage),
  account: () => import('../account/AccountPage.tsx').then((m) => m.AccountPage),
  profile: () => import('../account/ProfilePage.tsx').then((m) => m.ProfilePage),
};

/** Starts the download of the page at this route; a failure shows when the page renders. */
export function preloadPage(route: Route): void {
  if (route.page !== 'notFound') pageLoaders[route.page]().catch(() => undefined);
}
