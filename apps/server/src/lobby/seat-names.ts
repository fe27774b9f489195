import type { Context } from 'koa';

/**
 * The name a seat is taken under: a signed-in player's is its account's (none need be typed),
 * a guest's the name typed, unless it is not allowed (the accounts' part answers, refusing
 * with its error).
 */
export type SeatName = (ctx: Context, typed: string | undefined) => Promise<string>;
