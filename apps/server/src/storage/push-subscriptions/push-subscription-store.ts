import type { Seat } from '@iron-curtain/game';
import type { PushLanguage } from '@iron-curtain/protocol';

/**
 * A browser a seat asked to be told by Web Push when it is its turn: the push service's
 * endpoint, the keys a message is encrypted to, and the language it reads.
 */
export interface PushSubscriptionRecord {
  matchID: string;
  seat: Seat;
  endpoint: string;
  /** The browser's P-256 public key (base64url), RFC 8291's ua_public. */
  p256dh: string;
  /** The browser's 16-byte authentication secret (base64url). */
  auth: string;
  language: PushLanguage;
  createdAt: string;
}

/** The browsers each seat of a match asked to be told by Web Push. */
export interface PushSubscriptionStore {
  /**
   * Keeps a seat's push subscription (a browser subscribing again replaces its keys and
   * language); a seat keeps its newest PUSH_SUBSCRIPTIONS_PER_SEAT. Removed with its match.
   * False when there is no such match.
   */
  savePushSubscription(subscription: PushSubscriptionRecord): Promise<boolean>;
  /** The seat's push subscriptions (every seat's when `seat` is undefined), oldest first. */
  listPushSubscriptions(matchID: string, seat?: Seat): Promise<PushSubscriptionRecord[]>;
  /** Drops one seat's subscription of one browser; false when there was none. */
  removePushSubscription(matchID: string, seat: Seat, endpoint: string): Promise<boolean>;
  /** Drops every subscription of an endpoint the push service says is gone; answers how many. */
  removePushEndpoint(endpoint: string): Promise<number>;
  /** Drops every subscription of a match (once it ended, nothing more is sent for it). */
  removeMatchPushSubscriptions(matchID: string): Promise<void>;
}
