import { randomBytes } from 'node:crypto';
import type { SignUp } from '../../src/storage/index.ts';

const id = () => randomBytes(9).toString('base64url');

/**
 * A sign-up's rows for a name with the given key and skeleton (each test picks its own), at
 * minute 0 of 2026.
 */
export function signUpOf(username: string, nameKey: string, skeleton: string): SignUp {
  const accountID = id();
  const at = new Date(Date.UTC(2026, 0, 1)).toISOString();
  return {
    account: {
      accountID,
      username,
      nameKey,
      skeleton,
      createdAt: at,
      disabledAt: null,
      deletedAt: null,
    },
    passkey: {
      credentialID: id(),
      accountID,
      publicKey: id(),
      counter: 0,
      transports: ['internal', 'hybrid'],
      name: 'this laptop',
      createdAt: at,
      lastUsedAt: null,
    },
    recoveryCodeHashes: Array.from({ length: 10 }, id),
    session: {
      sessionHash: id(),
      accountID,
      createdAt: at,
      lastSeenAt: at,
      agent: 'Firefox on Linux',
    },
  };
}
