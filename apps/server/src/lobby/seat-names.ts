import type { Context } from 'koa';

/**
 * The name a seat is taken under: a signed-in player's is its account's, a guest's the name
 * typed, unless that is an account's (the accounts' part answers, refusing with its error).
 */
export type SeatName = (ctx: Context, typed: string) => Promise<string>;
