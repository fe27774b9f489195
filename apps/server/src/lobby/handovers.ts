import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, randomInt } from 'node:crypto';
import {
  apiRoutes,
  HANDOVER_TTL_MS,
  type Handover,
  type HandoverSeats,
  handoverRedeemRequestSchema,
  handoverRequestSchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { LobbyError } from '../edge/lobby-error.ts';
import { type LimitOptions, spend } from '../edge/rate-limiters.ts';
import { hashSecret, secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type { HandoverStore, MatchStore } from '../storage/index.ts';
import { jsonBody, parse } from './lobby-routes.ts';

/** Letters and digits that cannot be mistaken for one another when read off a screen. */
export const HANDOVER_ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
/**
 * A code is 15 characters of 30, shown as three groups of five: the first group finds the
 * handover in the store (its locator), the other ten (49 bits) open it. Tries count against
 * the handover its locator finds, so guessing its secret ends after HANDOVER_TRIES.
 */
const LOCATOR_LENGTH = 5;
const CODE_LENGTH = 15;
/** Tries one code takes, right or wrong, from anyone: after this many it opens no more. */
export const HANDOVER_TRIES = 5;
/**
 * Failed redemptions per client address per 10 minutes answered with their reason; past them
 * a failed one is answered 429. A right code is never refused for its address: a flood of
 * wrong ones from a school's address does not stop a pupil there taking their games.
 */
export const HANDOVER_FAILURES_PER_ADDRESS = 10;
export const HANDOVER_FAILURE_LIMIT: LimitOptions = {
  name: 'handover-failures',
  points: HANDOVER_FAILURES_PER_ADDRESS,
  duration: HANDOVER_TTL_MS / 1000,
};
const MAX_BODY_BYTES = 64 * 1024;
/**
 * A handover is kept this long after it expired (its seats forgotten once used or expired), so
 * that its code is refused as expired or used, not as unknown, to someone coming back later.
 */
export const HANDOVER_KEPT_MS = 24 * 60 * 60 * 1000;
/** A new handover whose locator is taken (a code alive or kept) draws again, up to this often. */
const MAX_DRAWS = 5;

/** A new code, shown as three groups of five ("ABCDE-FGHJK-MNPQR"). */
export function newHandoverCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () =>
    HANDOVER_ALPHABET.charAt(randomInt(HANDOVER_ALPHABET.length)),
  );
  return [0, 5, 10].map((at) => chars.slice(at, at + 5).join('')).join('-');
}

/** The code as typed: case, dashes and spaces do not matter. */
export const normalCode = (code: string): string => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The store's key of the handover a code names: the hash of its locator, never of its secret. */
export const handoverKey = (code: string): string => hashSecret(code.slice(0, LOCATOR_LENGTH));

/**
 * What a code opens is kept sealed with a key only the whole code gives: its rows alone open
 * nothing. `purpose` keeps each kind of code to its own route (a handover's seats, a passkey
 * code's account): a code of one kind opens nothing at the other's.
 */
const sealKey = (code: string, purpose: CodePurpose) =>
  Buffer.from(hkdfSync('sha256', code, 'iron-curtain handover', SEAL_INFO[purpose], 32));

export type CodePurpose = 'handover' | 'passkey';
const SEAL_INFO: Record<CodePurpose, string> = { handover: 'seal', passkey: 'passkey-code' };

function seal(code: string, value: unknown, purpose: CodePurpose): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(code, purpose), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/** What was sealed, when `code` is the one it was sealed with for `purpose` (GCM's tag checks it). */
function unseal(code: string, sealed: string, purpose: CodePurpose): unknown {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(code, purpose), iv as Buffer);
    decipher.setAuthTag(tag as Buffer);
    const text = Buffer.concat([decipher.update(body as Buffer), decipher.final()]);
    return JSON.parse(text.toString('utf8'));
  } catch {
    return undefined;
  }
}

const wellFormed = (code: string) =>
  code.length === CODE_LENGTH && [...code].every((c) => HANDOVER_ALPHABET.includes(c));

/** A code's refusals, each its own error code. */
export interface CodeRefusals {
  unknown: () => LobbyError;
  used: () => LobbyError;
  expired: () => LobbyError;
  triedOut: () => LobbyError;
}

/**
 * Keeps `value` sealed under a new one-time code until HANDOVER_TTL_MS from now; the code as
 * shown, and its expiry.
 */
export async function putCode(
  store: Pick<HandoverStore, 'putHandover'>,
  value: unknown,
  purpose: CodePurpose,
  now: number,
): Promise<{ code: string; expiresAt: string }> {
  const expiresAt = new Date(now + HANDOVER_TTL_MS).toISOString();
  for (let draw = 0; draw < MAX_DRAWS; draw++) {
    const code = newHandoverCode();
    const plain = normalCode(code);
    const kept = await store.putHandover(handoverKey(plain), seal(plain, value, purpose), {
      expiresAt,
      now: new Date(now).toISOString(),
      forgetBefore: new Date(now - HANDOVER_KEPT_MS).toISOString(),
    });
    if (kept) return { code, expiresAt };
  }
  throw new LobbyError(500, 'SERVER_ERROR', 'no free code; try again');
}

/**
 * What a one-time code (as typed) opens, once, or the refusal saying why not. Each code takes
 * HANDOVER_TRIES tries, counted in its row (on every instance, under concurrent requests).
 */
export async function redeemCode(
  store: Pick<HandoverStore, 'tryHandover' | 'useHandover'>,
  typed: string,
  purpose: CodePurpose,
  refusals: CodeRefusals,
  now: number,
): Promise<unknown> {
  const code = normalCode(typed);
  if (!wellFormed(code)) throw refusals.unknown();
  const key = handoverKey(code);
  const tried = await store.tryHandover(key, HANDOVER_TRIES);
  if (!tried) throw refusals.unknown();
  if (tried.usedAt !== null) throw refusals.used();
  if (tried.expiresAt <= new Date(now).toISOString()) throw refusals.expired();
  if (!tried.counted) throw refusals.triedOut();
  const opened = unseal(code, tried.sealed, purpose);
  if (opened === undefined) throw refusals.unknown();
  // Of two browsers redeeming the right code at once, one has it.
  if (!(await store.useHandover(key, new Date(now).toISOString()))) throw refusals.used();
  return opened;
}

const handoverRefusals: CodeRefusals = {
  unknown: () => new LobbyError(404, 'HANDOVER_UNKNOWN', 'no handover has this code'),
  used: () => new LobbyError(410, 'HANDOVER_USED', 'this code was used: it hands over once'),
  expired: () => new LobbyError(410, 'HANDOVER_EXPIRED', 'this code has expired'),
  triedOut: () =>
    new LobbyError(
      410,
      'HANDOVER_TRIED_OUT',
      `this code was tried ${HANDOVER_TRIES} times and opens no more`,
    ),
};

/**
 * Taking your games to another device: a browser hands the seats it holds over a one-time code
 * that another browser redeems, once, within HANDOVER_TTL_MS. The credentials travel only in
 * request and response bodies. Guessing is bounded per code, not per address: each code takes
 * HANDOVER_TRIES tries, counted in the store (one row, so on every instance and under
 * concurrent requests), whoever sends them. An address's failed tries past
 * HANDOVER_FAILURES_PER_ADDRESS (counted in Redis across instances when there is one) are
 * answered 429 without their reason; its right codes still open.
 */
export function handoverRouter(
  matches: Pick<MatchStore, 'getMatch'>,
  handovers: HandoverStore,
  time: TimeSource,
  failures: RateLimiterAbstract,
  writeLimit: Middleware,
): Router {
  const router = new Router();

  router.post(apiRoutes.handovers, writeLimit, async (ctx) => {
    const { seats } = parse(handoverRequestSchema, await jsonBody(ctx, MAX_BODY_BYTES));
    const held: HandoverSeats['seats'] = [];
    for (const asked of seats) {
      const match = await matches.getMatch(asked.matchID);
      const seat = match?.players.find((p) => p.seat === asked.seat);
      if (!seat || !secretMatches(asked.credentials, seat.credentialsHash)) continue;
      if (held.some((h) => h.matchID === asked.matchID)) continue;
      held.push({ ...asked, side: seat.side, name: seat.name ?? '' });
    }
    if (held.length === 0) {
      throw new LobbyError(403, 'BAD_CREDENTIALS', 'none of these credentials holds its seat');
    }
    const { code, expiresAt } = await putCode(handovers, { seats: held }, 'handover', time.now());
    const answer: Handover = { code, expiresAt, seats: held.length };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.post(apiRoutes.handoverRedeem, async (ctx) => {
    try {
      const { code } = parse(handoverRedeemRequestSchema, await jsonBody(ctx));
      ctx.body = (await redeemCode(
        handovers,
        code,
        'handover',
        handoverRefusals,
        time.now(),
      )) as HandoverSeats;
    } catch (error) {
      if (!(error instanceof LobbyError) || error.status >= 500) throw error;
      // Every refusal costs its address, whatever it was; past the budget it says no more.
      const refusal = await spend(failures, ctx.ip);
      if (!refusal) throw error;
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      ctx.set('Retry-After', String(seconds));
      throw new LobbyError(
        429,
        'RATE_LIMITED',
        `too many failed codes from this address; try again in ${seconds} s`,
      );
    }
  });

  return router;
}
