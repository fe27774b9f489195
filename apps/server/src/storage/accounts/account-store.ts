import type { SessionRecord } from '../sessions/session-store.ts';

/** An account: its name as typed, and the two forms that keep names apart. */
export interface AccountRecord {
  accountID: string;
  username: string;
  /** The name in NFKC, case-folded: unique. */
  nameKey: string;
  /** The name's confusable skeleton (UTS #39): unique, so no name looks like another. */
  skeleton: string;
  createdAt: string;
  disabledAt: string | null;
  deletedAt: string | null;
}

/** A passkey's public half (the private key never leaves the authenticator). */
export interface PasskeyRecord {
  /** base64url, as WebAuthn names it. */
  credentialID: string;
  accountID: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  /** The name the player gives it ("this laptop"). */
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Why a name cannot be had: its key is taken, or its skeleton is another name's. */
export interface NameClash {
  clash: 'taken' | 'too-close';
  /** The existing name, as typed. */
  username: string;
}

/** Everything a sign-up writes, at once. */
export interface SignUp {
  account: AccountRecord;
  passkey: PasskeyRecord;
  /** Keyed hashes of the ten recovery codes. */
  recoveryCodeHashes: readonly string[];
  session: SessionRecord;
}

/** Accounts, their passkeys and their recovery codes. */
export interface AccountStore {
  /** The account whose key or skeleton is `nameKey`'s or `skeleton`'s (the key first); undefined when free. */
  nameClash(nameKey: string, skeleton: string): Promise<NameClash | undefined>;
  /**
   * Writes the account, its passkey, its recovery codes and its first session in one
   * transaction; of two sign-ups of clashing names at once, on any instances, one is kept and
   * the other answered with the clash, writing nothing.
   */
  signUp(signUp: SignUp): Promise<NameClash | undefined>;
  account(accountID: string): Promise<AccountRecord | undefined>;
  /** The account whose name's key is `nameKey` (deleted or disabled ones too). */
  accountNamed(nameKey: string): Promise<AccountRecord | undefined>;
  /** The account's passkeys, the oldest first. */
  passkeysOf(accountID: string): Promise<PasskeyRecord[]>;
  /** Adds a passkey to an account: false, adding nothing, when its credential id is known already. */
  addPasskey(passkey: PasskeyRecord): Promise<boolean>;
  /**
   * Removes one of the account's passkeys, unless it is the last while the account has no
   * unused recovery code (`last`); `unknown` when the account has no such passkey. Of two
   * removals at once, on any instances, the second sees the first's outcome.
   */
  removePasskey(accountID: string, credentialID: string): Promise<'removed' | 'last' | 'unknown'>;
  /** A passkey, by its credential id. */
  passkey(credentialID: string): Promise<PasskeyRecord | undefined>;
  /**
   * Records a use of a passkey whose authenticator reported `counter`, at `now`: false, storing
   * nothing, when the counter did not move past the stored one (a cloned authenticator, or a
   * replay), unless both are zero (an authenticator that keeps no counter).
   */
  usePasskey(credentialID: string, counter: number, now: string): Promise<boolean>;
  /**
   * Uses the recovery code with hash `codeHash` of the account whose key is `nameKey`, once:
   * the account's id, or undefined when no such unused code of a usable account exists.
   */
  useRecoveryCode(nameKey: string, codeHash: string, now: string): Promise<string | undefined>;
  /**
   * Disables the account whose key is `nameKey` as of `disabledAt`, or (null) enables it again:
   * the account's id, or undefined when no such account exists.
   */
  setDisabled(nameKey: string, disabledAt: string | null): Promise<string | undefined>;
  /**
   * Deletes the account as of `now`, in one transaction: its finished games' seats it held
   * are renamed `deletedName`, its seats, sessions, passkeys and recovery codes removed; the
   * account's row stays, marked deleted, so its name stays taken. False when it was gone.
   */
  deleteAccount(accountID: string, deletedName: string, now: string): Promise<boolean>;
  /**
   * Frees the names of accounts deleted at or before `deletedBefore`: their key and skeleton
   * become `deleted:<account id>`, which no name can be (a name has no colon). How many.
   */
  releaseNames(deletedBefore: string): Promise<number>;
}
