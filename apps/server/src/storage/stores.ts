import type { ChatStore } from './chat/chat-store.ts';
import type { DeckStore } from './decks/deck-store.ts';
import type { HandoverStore } from './handovers/handover-store.ts';
import type { MatchStore } from './matches/match-store.ts';
import type { PushSubscriptionStore } from './push-subscriptions/push-subscription-store.ts';
import type { SecretStore } from './secrets/secret-store.ts';

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
  /** Throws when the database cannot serve requests. */
  ping(): Promise<void>;
  /** Settles every write handed in (each is answered, and kept), then closes the database. */
  close(): Promise<void>;
}
