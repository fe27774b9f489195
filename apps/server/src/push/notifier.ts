import type { Seat } from '@iron-curtain/game';
import { type PushMessage, type PushNews, pushSentence } from '@iron-curtain/protocol';
import webpush from 'web-push';
import type { Logger } from '../ops/logger.ts';
import type { TimeSource } from '../ops/time.ts';
import type {
  MatchStore,
  PushSubscriptionRecord,
  PushSubscriptionStore,
} from '../storage/index.ts';
import { pushServiceAllowed } from './push-services.ts';
import type { VapidKeys } from './vapid-keys.ts';

/** How long a push service keeps a message for a browser that is offline, in seconds. */
const TTL_SECONDS: Record<PushNews, number> = {
  // A turn and a deadline wait as long as a correspondence turn may run.
  yourTurn: 7 * 24 * 3600,
  deadlineNear: 24 * 3600,
  won: 24 * 3600,
  lost: 24 * 3600,
  ended: 24 * 3600,
};

/** A push service that has not answered by then is given up on for this message. */
const SEND_TIMEOUT_MS = 10_000;

/** What the push service answered: its status, or why nothing came back. */
type Delivery = { status: number } | { failed: unknown };

export interface NotifierOptions {
  pushSubscriptions: PushSubscriptionStore;
  /** A match ending reads its record for the result. */
  matches: Pick<MatchStore, 'getMatch'>;
  keys: VapidKeys;
  logger: Logger;
  time: TimeSource;
  /** The push services the server may post to (PUSH_SERVICES). */
  services: readonly string[];
}

/**
 * Tells the seats' browsers by Web Push (RFC 8030, VAPID RFC 8292, payload encrypted per RFC
 * 8291) what happened in their matches. The message is the match id and one sentence in the
 * language the browser subscribed with: nothing of the game's hidden information and no
 * credential. A subscription the push service answers 404 or 410 for is gone for good and is
 * removed (from every match: a browser has one endpoint). Nothing a push service does, and no
 * failure of the store, reaches the caller: each call logs its failures and resolves.
 */
export class Notifier {
  constructor(private readonly options: NotifierOptions) {}

  /** The seat has the decision (the room calls it when its turn begins). */
  yourTurn(matchID: string, seat: Seat): Promise<void> {
    return this.guarded(matchID, async () => {
      const subscriptions = await this.options.pushSubscriptions.listPushSubscriptions(
        matchID,
        seat,
      );
      await this.sendAll(matchID, subscriptions, () => 'yourTurn');
    });
  }

  /** The seat's turn runs out at `deadline` (ISO time or ms since the epoch): the sentence gives the hours left. */
  deadlineNear(matchID: string, seat: Seat, deadline: string | number): Promise<void> {
    return this.guarded(matchID, async () => {
      const at = typeof deadline === 'number' ? deadline : Date.parse(deadline);
      const hours = Math.max(1, Math.round((at - this.options.time.now()) / 3_600_000));
      const subscriptions = await this.options.pushSubscriptions.listPushSubscriptions(
        matchID,
        seat,
      );
      await this.sendAll(matchID, subscriptions, () => 'deadlineNear', hours);
    });
  }

  /**
   * The match is over: each seat hears whether it won or lost (or that it closed), then the
   * match's subscriptions are dropped, as nothing more will be sent for it.
   */
  matchEnded(matchID: string): Promise<void> {
    return this.guarded(matchID, async () => {
      const { matches, pushSubscriptions } = this.options;
      const [match, subscriptions] = await Promise.all([
        matches.getMatch(matchID),
        pushSubscriptions.listPushSubscriptions(matchID),
      ]);
      const winner = match?.result?.winner;
      await this.sendAll(matchID, subscriptions, (seat) =>
        winner === undefined ? 'ended' : winner === seat ? 'won' : 'lost',
      );
      await pushSubscriptions.removeMatchPushSubscriptions(matchID);
    });
  }

  private async guarded(matchID: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.options.logger.error({ err: error, matchID }, 'push notifications failed');
    }
  }

  private async sendAll(
    matchID: string,
    subscriptions: PushSubscriptionRecord[],
    newsOf: (seat: Seat) => PushNews,
    hours?: number,
  ): Promise<void> {
    if (subscriptions.length === 0) return;
    const vapidDetails = await this.options.keys.get();
    await Promise.all(
      subscriptions.map((subscription) => {
        const news = newsOf(subscription.seat);
        const message: PushMessage = {
          matchID,
          text: pushSentence(subscription.language, news, hours),
        };
        return this.send(subscription, message, news, vapidDetails);
      }),
    );
  }

  private async send(
    subscription: PushSubscriptionRecord,
    message: PushMessage,
    news: PushNews,
    vapidDetails: Awaited<ReturnType<VapidKeys['get']>>,
  ): Promise<void> {
    const { pushSubscriptions, logger, services } = this.options;
    const service = new URL(subscription.endpoint).origin;
    const context = { matchID: message.matchID, seat: subscription.seat, service, news };
    // PUSH_SERVICES may have been narrowed since the browser subscribed.
    if (!pushServiceAllowed(services, subscription.endpoint)) {
      logger.warn(context, 'push service no longer allowed: message not sent');
      return;
    }
    const delivery = await this.post(subscription, message, news, vapidDetails);
    if ('failed' in delivery) {
      logger.warn({ ...context, err: delivery.failed }, 'push service unreachable');
    } else if (delivery.status === 404 || delivery.status === 410) {
      const removed = await pushSubscriptions.removePushEndpoint(subscription.endpoint);
      logger.info({ ...context, status: delivery.status, removed }, 'push subscription gone');
    } else if (delivery.status < 200 || delivery.status > 299) {
      logger.warn({ ...context, status: delivery.status }, 'push service refused a message');
    }
  }

  /**
   * web-push signs (VAPID JWT for the endpoint's origin) and encrypts (aes128gcm); fetch sends
   * it, following no redirect: the server posts only to the origins PUSH_SERVICES allows. Its
   * parts are called one by one: its generateRequestDetails reads the endpoint with Node's
   * deprecated url.parse(), which warns at the first message.
   */
  private async post(
    subscription: PushSubscriptionRecord,
    message: PushMessage,
    news: PushNews,
    vapidDetails: Awaited<ReturnType<VapidKeys['get']>>,
  ): Promise<Delivery> {
    try {
      const { cipherText } = webpush.encrypt(
        subscription.p256dh,
        subscription.auth,
        JSON.stringify(message),
        'aes128gcm',
      );
      const { Authorization } = webpush.getVapidHeaders(
        new URL(subscription.endpoint).origin,
        vapidDetails.subject,
        vapidDetails.publicKey,
        vapidDetails.privateKey,
        'aes128gcm',
      );
      const response = await fetch(subscription.endpoint, {
        method: 'POST',
        headers: {
          TTL: String(TTL_SECONDS[news]),
          'Content-Type': 'application/octet-stream',
          'Content-Encoding': 'aes128gcm',
          Authorization,
          Urgency: news === 'yourTurn' || news === 'deadlineNear' ? 'high' : 'normal',
          // One notification per match and seat waits at the push service: a newer replaces it.
          Topic: `m${subscription.seat}${message.matchID.replace(/[^A-Za-z0-9_-]/g, '')}`.slice(
            0,
            32,
          ),
        },
        body: cipherText,
        redirect: 'manual',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      await response.arrayBuffer().catch(() => undefined);
      return { status: response.status };
    } catch (error) {
      return { failed: error };
    }
  }
}
