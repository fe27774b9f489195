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
const ALPHABET = 'ABCDEFGHJKMNPQRSTVWXYZ23456789';
/** 10 characters of 30: 49 bits, against at most HANDOVER_REDEEMS_PER_ADDRESS tries per address in 10 minutes. */
const CODE_LENGTH = 10;
/** Redemption attempts per client address per 10 minutes, right or wrong. */
export const HANDOVER_REDEEMS_PER_ADDRESS = 10;
export const HANDOVER_REDEEM_LIMIT: LimitOptions = {
  name: 'handover-redeems',
  points: HANDOVER_REDEEMS_PER_ADDRESS,
  duration: HANDOVER_TTL_MS / 1000,
};
const MAX_BODY_BYTES = 64 * 1024;

/** A new code, shown as two groups of five ("ABCDE-FGHJK"). */
export function newHandoverCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

/** The code as typed: case, dashes and spaces do not matter. */
export const normalCode = (code: string): string => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The store keeps the seats sealed with a key only the code gives: its rows alone seat nobody. */
const sealKey = (code: string) =>
  Buffer.from(hkdfSync('sha256', code, 'iron-curtain handover', 'seal', 32));

function seal(code: string, seats: HandoverSeats): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(code), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(seats), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

function unseal(code: string, sealed: string): HandoverSeats {
  const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  const decipher = createDecipheriv('aes-256-gcm', sealKey(code), iv as Buffer);
  decipher.setAuthTag(tag as Buffer);
  const text = Buffer.concat([decipher.update(body as Buffer), decipher.final()]).toString('utf8');
  return JSON.parse(text) as HandoverSeats;
}

/**
 * Taking your games to another device: a browser hands the seats it holds over a one-time code
 * that another browser redeems, once, within HANDOVER_TTL_MS. The credentials travel only in
 * request and response bodies; the code is guessed at most HANDOVER_REDEEMS_PER_ADDRESS times
 * per address per 10 minutes (counted in Redis across instances when there is one).
 */
export function handoverRouter(
  matches: Pick<MatchStore, 'getMatch'>,
  handovers: HandoverStore,
  time: TimeSource,
  redeems: RateLimiterAbstract,
  writeLimit: Middleware,
): Router {
  const router = new Router();
  router.use(writeLimit);

  router.post(apiRoutes.handovers, async (ctx) => {
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
    const code = newHandoverCode();
    const now = time.now();
    const expiresAt = new Date(now + HANDOVER_TTL_MS).toISOString();
    await handovers.putHandover(
      hashSecret(normalCode(code)),
      seal(normalCode(code), { seats: held }),
      expiresAt,
      new Date(now).toISOString(),
    );
    const answer: Handover = { code, expiresAt, seats: held.length };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.post(apiRoutes.handoverRedeem, async (ctx) => {
    const refusal = await spend(redeems, ctx.ip);
    if (refusal) {
      const seconds = Math.max(1, Math.ceil(refusal.msBeforeNext / 1000));
      ctx.set('Retry-After', String(seconds));
      throw new LobbyError(429, 'RATE_LIMITED', `too many codes tried; try again in ${seconds} s`);
    }
    const code = normalCode(parse(handoverRedeemRequestSchema, await jsonBody(ctx)).code);
    const sealed =
      code.length === CODE_LENGTH
        ? await handovers.takeHandover(hashSecret(code), new Date(time.now()).toISOString())
        : undefined;
    if (sealed === undefined) {
      throw new LobbyError(404, 'NOT_FOUND', 'no such code, or it was used or has expired');
    }
    ctx.body = unseal(code, sealed);
  });

  return router;
}
