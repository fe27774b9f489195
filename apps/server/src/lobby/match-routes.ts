import {
  apiRoutes,
  claimWinRequestSchema,
  MAX_DECK_BYTES,
  rematchRequestSchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import type { MatchStore } from '../storage/index.ts';
import type { Lobby } from './lobby.ts';
import { jsonBody, matchParam, parse } from './lobby-routes.ts';
import type { Referee } from './referee.ts';
import type { RematchDesk } from './rematch-desk.ts';
import { replayRecordOf } from './replay-record.ts';
import type { SignedInSeats } from './signed-in-seats.ts';

/** Around a match: rematch offers, claiming the win, the replay record, uploading decks. */
export function matchRouter(
  lobby: Lobby,
  matches: Pick<MatchStore, 'getMatch' | 'readMoves'>,
  rematches: RematchDesk,
  referee: Referee,
  /** The seat of the rematch a signed-in player agreed to joins the account. */
  accountSeats: SignedInSeats,
  /** The per-address write limit (lobbyWriteLimit), run before every route. */
  writeLimit: Middleware,
): Router {
  const router = new Router();
  router.use(writeLimit);

  router.post(apiRoutes.rematch.route, async (ctx) => {
    const matchID = matchParam(ctx);
    const offered = await rematches.offer(
      matchID,
      parse(rematchRequestSchema, await jsonBody(ctx)),
    );
    if (offered.seat) await accountSeats.taken(ctx, offered.seat);
    ctx.body = offered;
  });

  router.post(apiRoutes.claim.route, async (ctx) => {
    const matchID = matchParam(ctx);
    const finished = await referee.claim(
      matchID,
      parse(claimWinRequestSchema, await jsonBody(ctx)),
    );
    ctx.body = await lobby.describe(finished);
  });

  router.get(apiRoutes.record.route, async (ctx) => {
    const matchID = matchParam(ctx);
    ctx.body = await replayRecordOf(matches, matchID);
    ctx.set('content-disposition', `attachment; filename="iron-curtain-${matchID}.json"`);
  });

  router.post(apiRoutes.decks, async (ctx) => {
    const { info, created } = await lobby.library.upload(await jsonBody(ctx, MAX_DECK_BYTES));
    ctx.status = created ? 201 : 200;
    ctx.body = { deck: info };
  });

  return router;
}
