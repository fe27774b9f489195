import { sqliteAccountSeatStore } from './account-seats/sqlite.ts';
import { sqliteAccountStore } from './accounts/sqlite.ts';
import { sqliteChatStore } from './chat/sqlite.ts';
import { openSqliteDatabase } from './database/sqlite-database.ts';
import { sqliteDeckStore } from './decks/sqlite.ts';
import { sqliteHandoverStore } from './handovers/sqlite.ts';
import { type SqliteMatchOptions, sqliteMatchStore } from './matches/sqlite.ts';
import { sqlitePushSubscriptionStore } from './push-subscriptions/sqlite.ts';
import { sqliteRatingStore } from './ratings/sqlite.ts';
import { sqliteSecretStore } from './secrets/sqlite.ts';
import { sqliteSessionStore } from './sessions/sqlite.ts';
import type { Stores } from './stores.ts';
import { sqliteWebAuthnChallengeStore } from './webauthn-challenges/sqlite.ts';

/** The embedded backend: every store on one SQLite file under `dataDir`, which this process owns. */
export function openSqliteStores(dataDir: string, options: SqliteMatchOptions = {}): Stores {
  const db = openSqliteDatabase(dataDir);
  return {
    kind: 'sqlite',
    matches: sqliteMatchStore(db, options),
    chat: sqliteChatStore(db),
    pushSubscriptions: sqlitePushSubscriptionStore(db),
    decks: sqliteDeckStore(db),
    handovers: sqliteHandoverStore(db),
    secrets: sqliteSecretStore(db),
    accounts: sqliteAccountStore(db),
    sessions: sqliteSessionStore(db),
    webauthnChallenges: sqliteWebAuthnChallengeStore(db),
    accountSeats: sqliteAccountSeatStore(db),
    ratings: sqliteRatingStore(db),
    async ping() {
      db.ping();
    },
    close: () => db.close(),
  };
}
