import {
  apiRoutes,
  PROFILE_PAGE_SIZE,
  type Profile,
  type ProfileGame,
  profileQuerySchema,
  type SideResults,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { LobbyError } from '../edge/lobby-error.ts';
import { parse } from '../lobby/lobby-routes.ts';
import type { AccountSeatStore, AccountStore, HeldGame } from '../storage/index.ts';
import { nameKey } from './usernames.ts';

/** The games in play a profile lists at most (a correspondence player may have many). */
export const PROFILE_CURRENT_GAMES = 50;
/** A name in the path longer than any username names nobody. */
const MAX_NAME_IN_PATH = 64;

export interface ProfileRouteDeps {
  accounts: Pick<AccountStore, 'accountNamed'>;
  accountSeats: Pick<AccountSeatStore, 'tallyOf' | 'gamesOf'>;
  /** The per-address write limit every lobby router runs. */
  writeLimit: Middleware;
}

const noSuchPlayer = () => new LobbyError(404, 'NOT_FOUND', 'no player has this name');

const gameOf = (game: HeldGame): ProfileGame => ({ ...game });

/**
 * GET /api/profiles/:username: an account's public page (issue 47, item 4). A disabled or
 * deleted account has none. Only a profile's own page says whether a name has an account.
 */
export function profileRouter({ accounts, accountSeats, writeLimit }: ProfileRouteDeps): Router {
  const router = new Router();
  router.use(writeLimit);

  router.get(apiRoutes.profile.route, async (ctx) => {
    const { page } = parse(profileQuerySchema, { ...ctx.query });
    const username = String(ctx.params.username);
    if (username.length > MAX_NAME_IN_PATH) throw noSuchPlayer();
    const account = await accounts.accountNamed(nameKey(username));
    if (!account || account.disabledAt || account.deletedAt) throw noSuchPlayer();
    const [tally, current, finished] = await Promise.all([
      accountSeats.tallyOf(account.accountID),
      accountSeats.gamesOf(account.accountID, 'current', PROFILE_CURRENT_GAMES, 0),
      // One more than a page: whether an older page follows.
      accountSeats.gamesOf(
        account.accountID,
        'finished',
        PROFILE_PAGE_SIZE + 1,
        (page - 1) * PROFILE_PAGE_SIZE,
      ),
    ]);
    const resultsOf = (side: 'US' | 'USSR'): SideResults => {
      const { played = 0, won = 0 } = tally.find((t) => t.side === side) ?? {};
      return { played, won, lost: played - won };
    };
    const answer: Profile = {
      username: account.username,
      memberSince: account.createdAt,
      results: { US: resultsOf('US'), USSR: resultsOf('USSR') },
      current: current.map(gameOf),
      finished: finished.slice(0, PROFILE_PAGE_SIZE).map(gameOf),
      page,
      more: finished.length > PROFILE_PAGE_SIZE,
    };
    ctx.body = answer;
  });

  return router;
}
