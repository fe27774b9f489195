import { USERNAME_PATTERN } from '@iron-curtain/protocol';
import { skeleton } from './confusables.ts';

/**
 * Names nobody may take: the server's own voices and words a player could be mistaken for.
 * Compared by key and by skeleton in each usual spelling, so "ADM1N" is refused as "ADMIN" is.
 */
const RESERVED = [
  'admin',
  'administrator',
  'anonymous',
  'api',
  'bot',
  'computer',
  'deleted',
  'deleted-player',
  'everyone',
  'guest',
  'help',
  'iron-curtain',
  'ironcurtain',
  'mod',
  'moderator',
  'null',
  'official',
  'operator',
  'root',
  'server',
  'settings',
  'staff',
  'support',
  'system',
  'undefined',
] as const;

/** A name's key: NFKC, then case-folded (the names are ASCII, where folding is lower-casing). */
export const nameKey = (username: string): string => username.normalize('NFKC').toLowerCase();

/**
 * A name's confusable skeleton, case-folded: names that look alike as shown ("rn" and "m",
 * "0" and "O", "1", "I" and "l") share it, in either letter case. The skeleton is taken
 * again after folding, as "M" folds to "m", which looks like "rn": "Marta" and "rnarta" meet.
 */
export const nameSkeleton = (username: string): string =>
  skeleton(skeleton(username.normalize('NFKC')).toLowerCase()).toLowerCase();

const spellings = (word: string) => [
  word,
  word.toUpperCase(),
  word[0]?.toUpperCase() + word.slice(1),
];
const reservedKeys = new Set<string>(RESERVED);
const reservedSkeletons = new Set(RESERVED.flatMap(spellings).map(nameSkeleton));

/** A guest's name reduced to what the eye reads: its skeleton without spaces, punctuation or symbols. */
const guestShape = (name: string): string => nameSkeleton(name).replace(/[\p{P}\p{S}\p{Z}]/gu, '');

/**
 * Whether a guest's typed name is, or looks like, a reserved word or one of `voices` (the
 * computer players' names): in any letter case, by a confusable spelling, or with other spaces
 * and punctuation ("Computer easy", "ADM1N!"). The shapes are made once.
 */
export function guestNamesReserved(voices: readonly string[]): (typed: string) => boolean {
  const shapes = new Set([...RESERVED, ...voices].flatMap(spellings).map(guestShape));
  return (typed) =>
    [typed, typed.toLowerCase(), typed.toUpperCase()].some((form) => shapes.has(guestShape(form)));
}

/** A name that may be taken if free, with the two forms the store keeps unique. */
export interface AcceptableName {
  username: string;
  nameKey: string;
  skeleton: string;
}

/**
 * The name as the store keeps it, or why it is not allowed: `form` (not 3-20 ASCII letters,
 * digits, `_` or `-`) or `reserved`.
 */
export function acceptableName(
  username: string,
): { ok: true; name: AcceptableName } | { ok: false; reason: 'form' | 'reserved' } {
  if (!USERNAME_PATTERN.test(username)) return { ok: false, reason: 'form' };
  const name = { username, nameKey: nameKey(username), skeleton: nameSkeleton(username) };
  return reservedKeys.has(name.nameKey) || reservedSkeletons.has(name.skeleton)
    ? { ok: false, reason: 'reserved' }
    : { ok: true, name };
}
