// The SQLite file's tables, one migration per change, in order: a file's user_version counts
// the ones it has run. A new store adds its tables here, at the end
// (and, when they name a match, to MATCH_TABLES).
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE matches (
     match_id TEXT PRIMARY KEY,
     visibility TEXT NOT NULL,
     status TEXT NOT NULL,
     variants TEXT NOT NULL,
     deck TEXT NOT NULL,
     setup_data TEXT NOT NULL,
     seed TEXT NOT NULL,
     invite_hash TEXT NOT NULL,
     created_at TEXT NOT NULL,
     updated_at TEXT NOT NULL,
     result TEXT
   );
   CREATE INDEX matches_listing ON matches (visibility, status, created_at);
   CREATE TABLE seats (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     seat TEXT NOT NULL,
     side TEXT NOT NULL,
     name TEXT,
     credentials_hash TEXT,
     PRIMARY KEY (match_id, seat)
   );
   CREATE TABLE states (
     match_id TEXT PRIMARY KEY REFERENCES matches (match_id),
     state_id INTEGER NOT NULL,
     state TEXT NOT NULL
   );
   CREATE TABLE moves (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     state_id INTEGER NOT NULL,
     seat TEXT NOT NULL,
     move TEXT NOT NULL,
     args TEXT NOT NULL,
     entries TEXT NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (match_id, state_id)
   );
   CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
   CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;`,
  // Turn clock, rematch links, seats' absence (abandonment), uploaded decks.
  `ALTER TABLE matches ADD COLUMN clock TEXT;
   ALTER TABLE matches ADD COLUMN rematch TEXT;
   ALTER TABLE matches ADD COLUMN rematch_of TEXT;
   ALTER TABLE seats ADD COLUMN away_since TEXT;
   CREATE TABLE decks (
     hash TEXT PRIMARY KEY,
     info TEXT NOT NULL,
     file TEXT NOT NULL,
     created_at TEXT NOT NULL
   );`,
  // Secrets of the server itself (the key of computer players' credentials).
  `CREATE TABLE server_secrets (
     name TEXT PRIMARY KEY,
     value TEXT NOT NULL
   );`,
  // Match chat (the creator's switch, each seat's mute), and removing old matches: the move
  // log stays append-only except while its match is being removed whole.
  `ALTER TABLE matches ADD COLUMN chat_off INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE seats ADD COLUMN muting_opponent INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE chat_lines (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     room TEXT NOT NULL,
     seat TEXT,
     phrase TEXT,
     text TEXT,
     at TEXT NOT NULL
   );
   CREATE INDEX chat_lines_match ON chat_lines (match_id, id);
   CREATE INDEX matches_age ON matches (status, updated_at);
   DROP TRIGGER moves_no_delete;
   CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
     WHEN (SELECT status FROM matches WHERE match_id = OLD.match_id) IS NOT 'removing'
     BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;`,
  // Seats handed over to another browser with a one-time code, kept sealed for minutes.
  `CREATE TABLE handovers (
     key TEXT PRIMARY KEY,
     sealed TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );`,
  // Browsers a seat asked to be told by Web Push when it is its turn.
  `CREATE TABLE push_subscriptions (
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     seat TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     p256dh TEXT NOT NULL,
     auth TEXT NOT NULL,
     language TEXT NOT NULL,
     created_at TEXT NOT NULL,
     PRIMARY KEY (match_id, seat, endpoint)
   );
   CREATE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint);`,
  // Correspondence play (days per turn), and every running turn's deadline and warning kept
  // with its match, indexed, for the deadline sweep.
  `ALTER TABLE matches ADD COLUMN days_per_turn INTEGER;
   ALTER TABLE matches ADD COLUMN deadline TEXT;
   ALTER TABLE matches ADD COLUMN warn_at TEXT;
   CREATE INDEX matches_deadline ON matches (deadline) WHERE deadline IS NOT NULL;
   CREATE INDEX matches_warn_at ON matches (warn_at) WHERE warn_at IS NOT NULL;`,
  // The state row keeps the latest state id (the compare-and-set) and the state as of
  // snapshot_id (null: as of state_id, as every row written before); the moves after it are
  // in the move log.
  `ALTER TABLE states ADD COLUMN snapshot_id INTEGER;`,
  // Handovers: found by their code's locator, each counting the tries at it, and kept (used
  // or not) past its expiry. Codes made before were keyed otherwise and open nothing now.
  `DELETE FROM handovers;
   ALTER TABLE handovers ADD COLUMN tries INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE handovers ADD COLUMN used_at TEXT;`,
  // Accounts with passkeys (issue 47): each name's key (NFKC, case-folded) and confusable
  // skeleton unique, its passkeys, its recovery codes (keyed hashes), its sessions (hashed
  // ids), the WebAuthn challenges every ceremony takes once, and the seats it holds.
  `CREATE TABLE accounts (
     account_id TEXT PRIMARY KEY,
     username TEXT NOT NULL,
     name_key TEXT NOT NULL UNIQUE,
     skeleton TEXT NOT NULL UNIQUE,
     created_at TEXT NOT NULL,
     disabled_at TEXT,
     deleted_at TEXT
   );
   CREATE TABLE passkeys (
     credential_id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts (account_id),
     public_key TEXT NOT NULL,
     counter INTEGER NOT NULL,
     transports TEXT NOT NULL,
     name TEXT NOT NULL,
     created_at TEXT NOT NULL,
     last_used_at TEXT
   );
   CREATE INDEX passkeys_account ON passkeys (account_id);
   CREATE TABLE recovery_codes (
     account_id TEXT NOT NULL REFERENCES accounts (account_id),
     code_hash TEXT NOT NULL,
     used_at TEXT,
     PRIMARY KEY (account_id, code_hash)
   );
   CREATE TABLE sessions (
     session_hash TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts (account_id),
     created_at TEXT NOT NULL,
     last_seen_at TEXT NOT NULL,
     agent TEXT NOT NULL
   );
   CREATE INDEX sessions_account ON sessions (account_id);
   CREATE TABLE webauthn_challenges (
     challenge TEXT PRIMARY KEY,
     purpose TEXT NOT NULL,
     data TEXT NOT NULL,
     expires_at TEXT NOT NULL
   );
   CREATE TABLE account_seats (
     account_id TEXT NOT NULL REFERENCES accounts (account_id),
     match_id TEXT NOT NULL REFERENCES matches (match_id),
     seat TEXT NOT NULL,
     credentials TEXT NOT NULL,
     joined_at TEXT NOT NULL,
     PRIMARY KEY (account_id, match_id, seat)
   );
   CREATE INDEX account_seats_match ON account_seats (match_id);`,
  // Each match's progress (whose decision, its last move) kept with it, written with each move:
  // My games reads no move log. Rows written before have none until first read (MatchStore).
  `ALTER TABLE matches ADD COLUMN progress TEXT;`,
  // A name's skeleton is now taken again after case-folding (a capital M folds to m, which
  // looks like rn). Names are ASCII, where that adds only m -> rn to a stored skeleton; a name
  // that would now clash with another keeps its old skeleton.
  `UPDATE accounts AS a SET skeleton = replace(a.skeleton, 'm', 'rn')
   WHERE a.skeleton LIKE '%m%' AND a.skeleton NOT LIKE 'deleted:%'
     AND NOT EXISTS (SELECT 1 FROM accounts b WHERE b.skeleton = replace(a.skeleton, 'm', 'rn'));`,
  // Rated play (issue 48): a match asked to be rated, its pool, why it does not count after
  // all, each seat's change at its end; the account holding each seat; each account's rating
  // per pool, and every change to it (kept when the match is removed: no reference to it).
  `ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE matches ADD COLUMN pool TEXT;
   ALTER TABLE matches ADD COLUMN unrated TEXT;
   ALTER TABLE matches ADD COLUMN ratings TEXT;
   ALTER TABLE seats ADD COLUMN account_id TEXT;
   CREATE TABLE ratings (
     account_id TEXT NOT NULL,
     pool TEXT NOT NULL,
     rating REAL NOT NULL,
     deviation REAL NOT NULL,
     volatility REAL NOT NULL,
     games INTEGER NOT NULL,
     updated_at TEXT NOT NULL,
     PRIMARY KEY (account_id, pool)
   );
   CREATE TABLE rating_history (
     account_id TEXT NOT NULL,
     pool TEXT NOT NULL,
     match_id TEXT NOT NULL,
     games INTEGER NOT NULL,
     rating_before REAL NOT NULL,
     rating_after REAL NOT NULL,
     deviation_after REAL NOT NULL,
     at TEXT NOT NULL,
     PRIMARY KEY (account_id, pool, games),
     UNIQUE (account_id, pool, match_id)
   );`,
];
