import { z } from 'zod/mini';
import { credentialsSchema, matchIdSchema, seatSchema } from './lobby.ts';

/** The languages a push message is written in: the web client's. */
export const PUSH_LANGUAGES = ['en', 'de', 'pl', 'fr'] as const;
export const pushLanguageSchema = z.enum(PUSH_LANGUAGES);
export type PushLanguage = z.infer<typeof pushLanguageSchema>;

/** Browsers a seat may have subscribed at once; a further one replaces the oldest. */
export const PUSH_SUBSCRIPTIONS_PER_SEAT = 5;

/** Longest endpoint URL accepted (the push services' are under 600 characters). */
const MAX_ENDPOINT_LENGTH = 1024;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '';
  } catch {
    return false;
  }
};

/** Where the browser's push service takes messages for it; which services are allowed is the server's setting. */
export const pushEndpointSchema = z
  .string()
  .check(
    z.maxLength(
      MAX_ENDPOINT_LENGTH,
      `the endpoint may be at most ${MAX_ENDPOINT_LENGTH} characters`,
    ),
    z.refine(isHttpUrl, 'the endpoint must be an https URL'),
  );

/**
 * A browser's push subscription as `PushSubscription.toJSON()` gives it: the endpoint and the
 * keys a message is encrypted to (RFC 8291): p256dh an uncompressed P-256 point (65 bytes, so
 * 87 base64url characters starting with B), auth 16 bytes (22 characters).
 */
export const pushSubscriptionSchema = z.object({
  endpoint: pushEndpointSchema,
  expirationTime: z.optional(z.nullable(z.number())),
  keys: z.object({
    p256dh: z
      .string()
      .check(z.regex(/^B[A-Za-z0-9_-]{86}$/, 'p256dh must be a P-256 public key in base64url')),
    auth: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/, 'auth must be 16 bytes in base64url')),
  }),
});
export type PushSubscriptionJSON = z.infer<typeof pushSubscriptionSchema>;

/** GET /api/push/key: the server's VAPID public key, the browser's `applicationServerKey`. */
export const pushKeySchema = z.object({ publicKey: z.string() });
export type PushKey = z.infer<typeof pushKeySchema>;

/**
 * POST /api/push/subscriptions: a seat's browser asks to be told when it is the seat's turn,
 * in `language`. The credentials prove the seat; they are not stored with the subscription.
 */
export const pushSubscribeRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  seat: seatSchema,
  credentials: credentialsSchema,
  language: pushLanguageSchema,
  subscription: pushSubscriptionSchema,
});
export type PushSubscribeRequest = z.input<typeof pushSubscribeRequestSchema>;

/** The answer to a subscription (201): the seat it holds for. */
export const pushSubscribedSchema = z.object({ matchID: matchIdSchema, seat: seatSchema });
export type PushSubscribed = z.infer<typeof pushSubscribedSchema>;

/** DELETE /api/push/subscriptions: the seat's browser no longer wants messages for that match. */
export const pushUnsubscribeRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  seat: seatSchema,
  credentials: credentialsSchema,
  endpoint: pushEndpointSchema,
});
export type PushUnsubscribeRequest = z.input<typeof pushUnsubscribeRequestSchema>;

/** The answer to an unsubscription: whether there was such a subscription. */
export const pushUnsubscribedSchema = z.object({ removed: z.boolean() });
export type PushUnsubscribed = z.infer<typeof pushUnsubscribedSchema>;

/**
 * What a push message carries, the whole of it: the match and one sentence in the
 * subscriber's language. Never a card, a hand or a credential: push services read the
 * encrypted payload's size and timing, and a lost phone shows its notifications.
 */
export const pushMessageSchema = z.object({ matchID: matchIdSchema, text: z.string() });
export type PushMessage = z.infer<typeof pushMessageSchema>;

/** What a message tells: the seat's turn, its deadline near, the match over (won, lost or closed). */
export type PushNews = 'yourTurn' | 'deadlineNear' | 'won' | 'lost' | 'ended';

/** The sentences, by language; `{hours}` is the time left before the deadline, whole hours. */
export const PUSH_SENTENCES: Record<PushLanguage, Record<PushNews, string>> = {
  en: {
    yourTurn: 'It is your turn in Iron Curtain.',
    deadlineNear: 'About {hours} h left for your turn in Iron Curtain.',
    won: 'Your Iron Curtain match is over: you won.',
    lost: 'Your Iron Curtain match is over: you lost.',
    ended: 'Your Iron Curtain match is over.',
  },
  de: {
    yourTurn: 'Du bist in Iron Curtain am Zug.',
    deadlineNear: 'Noch etwa {hours} Std. für deinen Zug in Iron Curtain.',
    won: 'Deine Partie Iron Curtain ist beendet: du hast gewonnen.',
    lost: 'Deine Partie Iron Curtain ist beendet: du hast verloren.',
    ended: 'Deine Partie Iron Curtain ist beendet.',
  },
  pl: {
    yourTurn: 'Twój ruch w Iron Curtain.',
    deadlineNear: 'Zostało około {hours} godz. na twój ruch w Iron Curtain.',
    won: 'Twoja partia Iron Curtain się zakończyła: wygrana.',
    lost: 'Twoja partia Iron Curtain się zakończyła: przegrana.',
    ended: 'Twoja partia Iron Curtain się zakończyła.',
  },
  fr: {
    yourTurn: 'À vous de jouer dans Iron Curtain.',
    deadlineNear: 'Il vous reste environ {hours} h pour jouer votre tour dans Iron Curtain.',
    won: 'Votre partie d’Iron Curtain est terminée : vous avez gagné.',
    lost: 'Votre partie d’Iron Curtain est terminée : vous avez perdu.',
    ended: 'Votre partie d’Iron Curtain est terminée.',
  },
};

/** The sentence of `news` in `language`, with the hours left filled in. */
export const pushSentence = (language: PushLanguage, news: PushNews, hours = 0): string =>
  PUSH_SENTENCES[language][news].replace('{hours}', String(hours));
