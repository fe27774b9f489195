import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random base64url token of `bytes` random bytes. */
export const randomToken = (bytes: number): string => randomBytes(bytes).toString('base64url');

/** Match ids are public (they are in every link); 96 bits keep them unguessable anyway. */
export const newMatchID = () => randomToken(12);
/** Seat credentials: 192 bits, returned to their seat only. */
export const newCredentials = () => randomToken(24);
/** The invite token of a match's free seat: 144 bits. */
export const newInvite = () => randomToken(18);
/** The seed of boardgame.io's PRNG for one match: 256 bits, never leaves the server. */
export const newSeed = () => randomToken(32);

/** The store keeps only hashes of credentials and invites: a leaked database seats nobody. */
export const hashSecret = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('base64url');

/** Compares a presented secret with a stored hash in constant time. */
export function secretMatches(presented: string, storedHash: string | null): boolean {
  if (storedHash === null) return false;
  const a = Buffer.from(hashSecret(presented));
  const b = Buffer.from(storedHash);
  return a.length === b.length && timingSafeEqual(a, b);
}
