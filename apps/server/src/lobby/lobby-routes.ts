import {
  apiRoutes,
  createBotMatchRequestSchema,
  createMatchRequestSchema,
  joinMatchRequestSchema,
  leaveMatchRequestSchema,
  matchIdSchema,
  matchListQuerySchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Context, Middleware } from 'koa';
import { z } from 'zod';
import { LobbyError } from '../edge/lobby-error.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { Stores } from '../storage/index.ts';
import type { ChallengeBoard } from './challenge-board.ts';
import type { Lobby } from './lobby.ts';
import type { SeatName } from './seat-names.ts';
import type { SignedInSeats } from './signed-in-seats.ts';

/** Largest lobby request body, in bytes. */
const MAX_BODY_BYTES = 4 * 1024;

/** Parses with any zod schema: the wire schemas are zod's tree-shakable form, the server's own the classic. */
export function parse<S extends z.core.$ZodType>(schema: S, value: unknown): z.core.output<S> {
  const parsed = z.safeParse(schema, value);
  if (!parsed.success) throw new LobbyError(400, 'BAD_REQUEST', firstIssue(parsed.error, 3));
  return parsed.data;
}

/** Reads a JSON body; only application/json, at most `limit` bytes. */
export async function jsonBody(ctx: Context, limit = MAX_BODY_BYTES): Promise<unknown> {
  if (!ctx.is('application/json')) {
    throw new LobbyError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json');
  }
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) {
    throw new LobbyError(413, 'TOO_LARGE', `the body may be at most ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      throw new LobbyError(413, 'TOO_LARGE', `the body may be at most ${limit} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new LobbyError(400, 'BAD_JSON', 'the body is not valid JSON');
  }
}

export const matchParam = (ctx: Context & { params: Record<string, string> }) =>
  parse(matchIdSchema, ctx.params.id);

/** Whether this instance can take on another match with a computer player. */
export interface BotCapacity {
  readonly full: boolean;
  /** Creates a match with computer players, whose players run before it is answered. */
  create<T extends { matchID: string }>(create: () => Promise<T>): Promise<T>;
}

const botsBusy = () =>
  new LobbyError(503, 'BOTS_BUSY', 'the computer players are all busy; try again in a few minutes');

/** The lobby REST API under /api, plus health and readiness. */
export function lobbyRouter(
  lobby: Lobby,
  stores: Pick<Stores, 'kind' | 'ping'>,
  metrics: Metrics,
  bots: BotCapacity,
  challenges: ChallengeBoard,
  /** A seat taken by a signed-in player joins the account. */
  accountSeats: SignedInSeats,
  /** The name a seat is taken under: an account's, or a guest's that is no account's. */
  seatName: SeatName,
  /** The per-address write limit (lobbyWriteLimit), run before every route. */
  writeLimit: Middleware,
): Router {
  const router = new Router();
  router.use(writeLimit);

  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    try {
      await stores.ping();
      ctx.body = { status: 'ready', store: stores.kind };
    } catch {
      ctx.status = 503;
      ctx.body = { error: { code: 'STORE_UNAVAILABLE', message: 'the store does not answer' } };
    }
  });

  router.get(apiRoutes.decks, async (ctx) => {
    ctx.body = { decks: await lobby.decks() };
  });

  router.post(apiRoutes.matches, async (ctx) => {
    const typed = parse(createMatchRequestSchema, await jsonBody(ctx));
    if (typed.opponent !== 'human' && bots.full) throw botsBusy();
    const request = { ...typed, name: await seatName(ctx, typed.name) };
    const open = request.visibility === 'open' && request.opponent === 'human';
    const accountID = await accountSeats.accountOf(ctx);
    // The seat joins the account before the challenge list is told, so it lists the account.
    const create = async () => {
      const created = await lobby.create(request, undefined, accountID);
      await accountSeats.taken(ctx, created);
      return created;
    };
    const created = open
      ? await challenges.create(ctx.ip, create)
      : request.opponent === 'human'
        ? await create()
        : await bots.create(create);
    ctx.status = 201;
    ctx.body = created;
    metrics.matchesCreated.inc();
  });

  router.post(apiRoutes.botMatches, async (ctx) => {
    const request = parse(createBotMatchRequestSchema, await jsonBody(ctx));
    if (bots.full) throw botsBusy();
    ctx.status = 201;
    ctx.body = await bots.create(() => lobby.createBotMatch(request));
    metrics.matchesCreated.inc();
  });

  router.get(apiRoutes.matches, async (ctx) => {
    const query = parse(matchListQuerySchema, { ...ctx.query });
    ctx.body = { matches: await lobby.list(query.status, query.limit) };
  });

  router.get(apiRoutes.match.route, async (ctx) => {
    ctx.body = await lobby.info(matchParam(ctx));
  });

  router.post(apiRoutes.join.route, async (ctx) => {
    const matchID = matchParam(ctx);
    const typed = parse(joinMatchRequestSchema, await jsonBody(ctx));
    const request = { ...typed, name: await seatName(ctx, typed.name) };
    const granted = await lobby.join(matchID, request, await accountSeats.accountOf(ctx));
    await accountSeats.taken(ctx, granted);
    ctx.body = granted;
  });

  router.post(apiRoutes.leave.route, async (ctx) => {
    const matchID = matchParam(ctx);
    ctx.body = await lobby.leave(matchID, parse(leaveMatchRequestSchema, await jsonBody(ctx)));
    challenges.changed();
  });

  router.get(apiRoutes.challenges, async (ctx) => {
    ctx.body = await challenges.list();
  });

  router.get(apiRoutes.challengeStream, (ctx) => challenges.follow(ctx));

  return router;
}
