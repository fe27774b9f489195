import type { Seat } from '@iron-curtain/game';
import {
  apiRoutes,
  type PushKey,
  type PushSubscribed,
  type PushUnsubscribed,
  pushSubscribeRequestSchema,
  pushUnsubscribeRequestSchema,
} from '@iron-curtain/protocol';
import { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { LobbyError } from '../edge/lobby-error.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import { pushServiceAllowed } from '../push/push-services.ts';
import { subscriptionKeysProblem } from '../push/subscription-keys.ts';
import type { VapidKeys } from '../push/vapid-keys.ts';
import type { MatchRecord, MatchStore, PushSubscriptionStore } from '../storage/index.ts';
import { jsonBody, parse } from './lobby-routes.ts';

/** The match, when `credentials` hold `seat` in it; the refusal a seat-authenticated call gets otherwise. */
async function heldMatch(
  matches: Pick<MatchStore, 'getMatch'>,
  matchID: string,
  seat: Seat,
  credentials: string,
): Promise<MatchRecord> {
  const match = await matches.getMatch(matchID);
  if (!match) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
  const held = match.players.find((p) => p.seat === seat);
  if (!held || !secretMatches(credentials, held.credentialsHash)) {
    throw new LobbyError(403, 'BAD_CREDENTIALS', 'these credentials do not hold that seat');
  }
  return match;
}

/**
 * Web Push subscriptions ("your turn" notifications): the server's VAPID public key, and a
 * seat's browser subscribing or unsubscribing for one match. Subscribing needs the seat's
 * credentials, which are checked and not kept; the endpoint must belong to a push service of
 * PUSH_SERVICES, the only hosts the server ever posts to.
 */
export function pushRouter(
  matches: Pick<MatchStore, 'getMatch'>,
  pushSubscriptions: Pick<PushSubscriptionStore, 'savePushSubscription' | 'removePushSubscription'>,
  keys: VapidKeys,
  services: readonly string[],
  time: TimeSource,
  writeLimit: Middleware,
): Router {
  const router = new Router();
  router.use(writeLimit);

  router.get(apiRoutes.pushKey, async (ctx) => {
    const answer: PushKey = { publicKey: (await keys.get()).publicKey };
    ctx.body = answer;
  });

  router.post(apiRoutes.pushSubscriptions, async (ctx) => {
    const asked = parse(pushSubscribeRequestSchema, await jsonBody(ctx));
    const { endpoint, keys: browserKeys } = asked.subscription;
    if (!pushServiceAllowed(services, endpoint)) {
      throw new LobbyError(
        400,
        'BAD_REQUEST',
        'subscription.endpoint: this server sends to the push services of the common browsers only',
      );
    }
    const keysProblem = subscriptionKeysProblem(browserKeys);
    if (keysProblem) throw new LobbyError(400, 'BAD_REQUEST', keysProblem);
    const match = await heldMatch(matches, asked.matchID, asked.seat, asked.credentials);
    if (match.status === 'finished') {
      throw new LobbyError(
        409,
        'NOT_PLAYING',
        'the match is over: nothing more will be sent for it',
      );
    }
    const saved = await pushSubscriptions.savePushSubscription({
      matchID: asked.matchID,
      seat: asked.seat,
      endpoint,
      p256dh: browserKeys.p256dh,
      auth: browserKeys.auth,
      language: asked.language,
      createdAt: new Date(time.now()).toISOString(),
    });
    if (!saved) throw new LobbyError(404, 'NOT_FOUND', 'no such match');
    const answer: PushSubscribed = { matchID: asked.matchID, seat: asked.seat };
    ctx.status = 201;
    ctx.body = answer;
  });

  router.delete(apiRoutes.pushSubscriptions, async (ctx) => {
    const asked = parse(pushUnsubscribeRequestSchema, await jsonBody(ctx));
    await heldMatch(matches, asked.matchID, asked.seat, asked.credentials);
    const answer: PushUnsubscribed = {
      removed: await pushSubscriptions.removePushSubscription(
        asked.matchID,
        asked.seat,
        asked.endpoint,
      ),
    };
    ctx.body = answer;
  });

  return router;
}
