import type { Account } from '@iron-curtain/protocol';
import { useSyncExternalStore } from 'react';
import { LobbyError } from '../lobby/api.ts';
import { accountApi } from './accountApi.ts';
import { syncSeats } from './accountSeats.ts';

/**
 * Who is signed in on this browser, for the site bar and the account pages. The session cookie
 * is HttpOnly, so the page keeps the name beside it in localStorage: a guest's page asks the
 * server nothing, a signed-in player's page shows the name at once and asks the server whether
 * the session still lives (it may have ended everywhere, or expired).
 */
export type AccountState = { status: 'guest' } | { status: 'signedIn'; account: Account };

const KEY = 'iron-curtain:account';
const GUEST: AccountState = { status: 'guest' };
const listeners = new Set<() => void>();
let state: AccountState | undefined;

function remembered(): AccountState {
  try {
    const raw = localStorage.getItem(KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (
      typeof parsed === 'object' &&
      parsed !== null &&
      'username' in parsed &&
      typeof parsed.username === 'string' &&
      'createdAt' in parsed &&
      typeof parsed.createdAt === 'string'
    ) {
      return {
        status: 'signedIn',
        account: { username: parsed.username, createdAt: parsed.createdAt },
      };
    }
  } catch {
    // Storage refused or a value this page did not write: a guest.
  }
  return GUEST;
}

function set(next: AccountState): void {
  state = next;
  try {
    if (next.status === 'signedIn') localStorage.setItem(KEY, JSON.stringify(next.account));
    else localStorage.removeItem(KEY);
  } catch {
    // Without storage the name shows on this page only.
  }
  for (const listener of listeners) listener();
}

export function accountState(): AccountState {
  state ??= remembered();
  return state;
}

/** A sign-up or sign-in answered: this account is signed in. */
export const signedIn = (account: Account): void => set({ status: 'signedIn', account });
/**
 * Signed in anew, or the session confirmed: in the background, the seats of the account and of
 * this browser are made one (./accountSeats.ts); a failure is tried again at the next page.
 */
export const seatsFollow = (account: Account): void => {
  syncSeats(account.username).catch(() => undefined);
};
/** Signed out (here, everywhere, or the server no longer knows the session). */
export const signedOut = (): void => set(GUEST);

/**
 * Asks the server whether the remembered session lives: NOT_SIGNED_IN makes this browser a
 * guest; no answer (offline) keeps the name shown.
 */
export async function checkSession(): Promise<void> {
  if (accountState().status !== 'signedIn') return;
  try {
    const { account } = await accountApi.account();
    signedIn(account);
    seatsFollow(account);
  } catch (error) {
    if (error instanceof LobbyError && error.code === 'NOT_SIGNED_IN') signedOut();
  }
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAccount(): AccountState {
  return useSyncExternalStore(subscribe, accountState, () => GUEST);
}
