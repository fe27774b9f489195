import { postgresAccountSeatStore } from './account-seats/postgres.ts';
import { postgresAccountStore } from './accounts/postgres.ts';
import { postgresChatStore } from './chat/postgres.ts';
import { openPostgresDatabase } from './database/postgres-database.ts';
import { postgresDeckStore } from './decks/postgres.ts';
import { postgresHandoverStore } from './handovers/postgres.ts';
import { postgresMatchStore } from './matches/postgres.ts';
import { postgresPushSubscriptionStore } from './push-subscriptions/postgres.ts';
import { postgresRatingStore } from './ratings/postgres.ts';
import { postgresSecretStore } from './secrets/postgres.ts';
import { postgresSessionStore } from './sessions/postgres.ts';
import type { Stores } from './stores.ts';
import { postgresWebAuthnChallengeStore } from './webauthn-challenges/postgres.ts';

/** The Postgres backend (DATABASE_URL): every store on the tables of one schema, shared by instances. */
export async function openPostgresStores(url: string, schema: string): Promise<Stores> {
  const db = await openPostgresDatabase(url, schema);
  return {
    kind: 'postgres',
    matches: postgresMatchStore(db),
    chat: postgresChatStore(db),
    pushSubscriptions: postgresPushSubscriptionStore(db),
    decks: postgresDeckStore(db),
    handovers: postgresHandoverStore(db),
    secrets: postgresSecretStore(db),
    accounts: postgresAccountStore(db),
    sessions: postgresSessionStore(db),
    webauthnChallenges: postgresWebAuthnChallengeStore(db),
    accountSeats: postgresAccountSeatStore(db),
    ratings: postgresRatingStore(db),
    ping: () => db.ping(),
    close: () => db.close(),
  };
}
