import type { AccountStore, SessionStore } from '../storage/index.ts';
import { nameKey } from './usernames.ts';

/**
 * An operator disables an account (it can no longer sign in, and every session of it ends at
 * once, on every instance) or enables it again. False when no account has that name.
 */
export async function setAccountDisabled(
  stores: { accounts: AccountStore; sessions: SessionStore },
  username: string,
  disabled: boolean,
  now: string,
): Promise<boolean> {
  const accountID = await stores.accounts.setDisabled(nameKey(username), disabled ? now : null);
  if (accountID === undefined) return false;
  if (disabled) await stores.sessions.endAccountSessions(accountID);
  return true;
}
