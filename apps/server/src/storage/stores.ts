import type { AccountSeatStore } from './account-seats/account-seat-store.ts';
import type { AccountStore } from './accounts/account-store.ts';
import type { ChatStore } from './chat/chat-store.ts';
import type { DeckStore } from './decks/deck-store.ts';
import type { HandoverStore } from './handovers/handover-store.ts';
import type { MatchStore } from './matches/match-store.ts';
import type { PushSubscriptionStore } from './push-subscriptions/push-subscription-store.ts';
import type { RatingStore } from './ratings/rating-store.ts';
import type { SecretStore } from './secrets/secret-store.ts';
import type { SessionStore } from './sessions/session-store.ts';
import type { WebAuthnChallengeStore } from './webauthn-challenges/webauthn-challenge-store.ts';

/**
 * Every store of one backend, on one database (one SQLite file, or one Postgres schema): each
 * concern's store, handed to the parts that need it, and the database's own health and close.
 */
export interface Stores {
  readonly kind: 'sqlite' | 'postgres';
  readonly matches: MatchStore;
  readonly chat: ChatStore;
  readonly pushSubscriptions: PushSubscriptionStore;
  readonly decks: DeckStore;
  readonly handovers: HandoverStore;
  readonly secrets: SecretStore;
  readonly accounts: AccountStore;
  readonly sessions: SessionStore;
  readonly webauthnChallenges: WebAuthnChallengeStore;
  readonly accountSeats: AccountSeatStore;
  readonly ratings: RatingStore;
  /** Throws when the database cannot serve requests. */
  ping(): Promise<void>;
  /** Settles every write handed in (each is answered, and kept), then closes the database. */
  close(): Promise<void>;
}
