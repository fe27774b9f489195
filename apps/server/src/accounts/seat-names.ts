import { BOT_LEVELS } from '@iron-curtain/bots';
import { botName } from '../bots/credentials.ts';
import { LobbyError } from '../edge/lobby-error.ts';
import type { SeatName } from '../lobby/seat-names.ts';
import type { SignedInAccount } from '../lobby/signed-in-seats.ts';
import type { AccountStore } from '../storage/index.ts';
import { guestNamesReserved, nameKey, nameSkeleton } from './usernames.ts';

const reservedForGuests = guestNamesReserved(BOT_LEVELS.map(botName));

/**
 * Names at the table: a signed-in player sits under its account's name (a name typed as well
 * is ignored); a guest must type one, which may not be a reserved word or a computer player's
 * name, nor look like one, and may not be an account's, in any case or by a confusable spelling (the account's key or
 * skeleton), deleted accounts' names included while they stay taken. The refusal does not
 * say which account: a profile's own page is the only place that tells whether a name has one.
 */
export function seatNames(
  accounts: Pick<AccountStore, 'account' | 'nameClash'>,
  signedIn: SignedInAccount,
): SeatName {
  return async (ctx, typed) => {
    const accountID = await signedIn(ctx);
    const account = accountID === undefined ? undefined : await accounts.account(accountID);
    if (account && !account.disabledAt && !account.deletedAt) return account.username;
    if (typed === undefined) throw new LobbyError(400, 'BAD_REQUEST', 'name: enter a name');
    if (reservedForGuests(typed)) {
      throw new LobbyError(
        409,
        'GUEST_NAME_RESERVED',
        "a guest's name may not be, nor look like, a reserved word or a computer player's name",
      );
    }
    if (await accounts.nameClash(nameKey(typed), nameSkeleton(typed))) {
      throw new LobbyError(
        409,
        'GUEST_NAME_TAKEN',
        "a guest's name may not be an account's, in any case or spelling",
      );
    }
    return typed;
  };
}
