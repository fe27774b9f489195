// The schema's tables, one migration per change, in order: schema_version counts the ones it
// has run. A new store adds its tables here, at the end
// (and, when they name a match, to MATCH_TABLES).

/** Schema migrations, in order; `S` stands for the quoted schema name. */
export const MIGRATIONS: readonly ((S: string) => string)[] = [
  (S) => `
   CREATE TABLE ${S}.matches (
     match_id text PRIMARY KEY,
     visibility text NOT NULL,
     status text NOT NULL,
     variants json NOT NULL,
     deck json NOT NULL,
     setup_data json NOT NULL,
     seed text NOT NULL,
     invite_hash text NOT NULL,
     created_at timestamptz NOT NULL,
     updated_at timestamptz NOT NULL,
     result json
   );
   CREATE INDEX matches_listing ON ${S}.matches (visibility, status, created_at);
   CREATE TABLE ${S}.seats (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     seat text NOT NULL,
     side text NOT NULL,
     name text,
     credentials_hash text,
     PRIMARY KEY (match_id, seat)
   );
   CREATE TABLE ${S}.states (
     match_id text PRIMARY KEY REFERENCES ${S}.matches (match_id),
     state_id integer NOT NULL,
     state json NOT NULL
   );
   CREATE TABLE ${S}.moves (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     state_id integer NOT NULL,
     seat text NOT NULL,
     move text NOT NULL,
     args json NOT NULL,
     entries json NOT NULL,
     at timestamptz NOT NULL,
     PRIMARY KEY (match_id, state_id)
   );
   CREATE FUNCTION ${S}.moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN RAISE EXCEPTION 'the move log is append-only'; END $$;
   CREATE TRIGGER moves_append_only BEFORE UPDATE OR DELETE ON ${S}.moves
     FOR EACH STATEMENT EXECUTE FUNCTION ${S}.moves_append_only();`,
  // Turn clock, rematch links, seats' absence (abandonment), uploaded decks.
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN clock json;
   ALTER TABLE ${S}.matches ADD COLUMN rematch json;
   ALTER TABLE ${S}.matches ADD COLUMN rematch_of text;
   ALTER TABLE ${S}.seats ADD COLUMN away_since timestamptz;
   CREATE TABLE ${S}.decks (
     hash text PRIMARY KEY,
     info json NOT NULL,
     file json NOT NULL,
     created_at timestamptz NOT NULL
   );`,
  // Secrets of the server itself (the key of computer players' credentials).
  (S) => `
   CREATE TABLE ${S}.server_secrets (
     name text PRIMARY KEY,
     value text NOT NULL
   );`,
  // Match chat (the creator's switch, each seat's mute), and removing old matches: the move
  // log stays append-only except inside a removal's transaction (removing_matches set).
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN chat_off boolean NOT NULL DEFAULT false;
   ALTER TABLE ${S}.seats ADD COLUMN muting_opponent boolean NOT NULL DEFAULT false;
   CREATE TABLE ${S}.chat_lines (
     id bigserial PRIMARY KEY,
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     room text NOT NULL,
     seat text,
     phrase text,
     text text,
     at timestamptz NOT NULL
   );
   CREATE INDEX chat_lines_match ON ${S}.chat_lines (match_id, id);
   CREATE INDEX matches_age ON ${S}.matches (status, updated_at);
   CREATE OR REPLACE FUNCTION ${S}.moves_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF TG_OP = 'DELETE' AND current_setting('iron_curtain.removing_matches', true) = 'on' THEN
         RETURN NULL;
       END IF;
       RAISE EXCEPTION 'the move log is append-only';
     END $$;`,
  // Seats handed over to another browser with a one-time code, kept sealed for minutes.
  (S) => `
   CREATE TABLE ${S}.handovers (
     key text PRIMARY KEY,
     sealed text NOT NULL,
     expires_at timestamptz NOT NULL
   );`,
  // Browsers a seat asked to be told by Web Push when it is its turn.
  (S) => `
   CREATE TABLE ${S}.push_subscriptions (
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     seat text NOT NULL,
     endpoint text NOT NULL,
     p256dh text NOT NULL,
     auth text NOT NULL,
     language text NOT NULL,
     created_at timestamptz NOT NULL,
     PRIMARY KEY (match_id, seat, endpoint)
   );
   CREATE INDEX push_subscriptions_endpoint ON ${S}.push_subscriptions (endpoint);`,
  // Correspondence play (days per turn), and every running turn's deadline and warning kept
  // with its match, indexed, for the deadline sweep.
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN days_per_turn integer;
   ALTER TABLE ${S}.matches ADD COLUMN deadline timestamptz;
   ALTER TABLE ${S}.matches ADD COLUMN warn_at timestamptz;
   CREATE INDEX matches_deadline ON ${S}.matches (deadline) WHERE deadline IS NOT NULL;
   CREATE INDEX matches_warn_at ON ${S}.matches (warn_at) WHERE warn_at IS NOT NULL;`,
  // Handovers: found by their code's locator, each counting the tries at it, and kept (used
  // or not) past its expiry. Codes made before were keyed otherwise and open nothing now.
  (S) => `
   DELETE FROM ${S}.handovers;
   ALTER TABLE ${S}.handovers ADD COLUMN tries integer NOT NULL DEFAULT 0;
   ALTER TABLE ${S}.handovers ADD COLUMN used_at timestamptz;`,
  // Accounts with passkeys (issue 47): each name's key (NFKC, case-folded) and confusable
  // skeleton unique, its passkeys, its recovery codes (keyed hashes), its sessions (hashed
  // ids), the WebAuthn challenges every ceremony takes once, and the seats it holds.
  (S) => `
   CREATE TABLE ${S}.accounts (
     account_id text PRIMARY KEY,
     username text NOT NULL,
     name_key text NOT NULL UNIQUE,
     skeleton text NOT NULL UNIQUE,
     created_at timestamptz NOT NULL,
     disabled_at timestamptz,
     deleted_at timestamptz
   );
   CREATE TABLE ${S}.passkeys (
     credential_id text PRIMARY KEY,
     account_id text NOT NULL REFERENCES ${S}.accounts (account_id),
     public_key text NOT NULL,
     counter bigint NOT NULL,
     transports json NOT NULL,
     name text NOT NULL,
     created_at timestamptz NOT NULL,
     last_used_at timestamptz
   );
   CREATE INDEX passkeys_account ON ${S}.passkeys (account_id);
   CREATE TABLE ${S}.recovery_codes (
     account_id text NOT NULL REFERENCES ${S}.accounts (account_id),
     code_hash text NOT NULL,
     used_at timestamptz,
     PRIMARY KEY (account_id, code_hash)
   );
   CREATE TABLE ${S}.sessions (
     session_hash text PRIMARY KEY,
     account_id text NOT NULL REFERENCES ${S}.accounts (account_id),
     created_at timestamptz NOT NULL,
     last_seen_at timestamptz NOT NULL,
     agent text NOT NULL
   );
   CREATE INDEX sessions_account ON ${S}.sessions (account_id);
   CREATE TABLE ${S}.webauthn_challenges (
     challenge text PRIMARY KEY,
     purpose text NOT NULL,
     data json NOT NULL,
     expires_at timestamptz NOT NULL
   );
   CREATE TABLE ${S}.account_seats (
     account_id text NOT NULL REFERENCES ${S}.accounts (account_id),
     match_id text NOT NULL REFERENCES ${S}.matches (match_id),
     seat text NOT NULL,
     credentials text NOT NULL,
     joined_at timestamptz NOT NULL,
     PRIMARY KEY (account_id, match_id, seat)
   );
   CREATE INDEX account_seats_match ON ${S}.account_seats (match_id);`,
  // Each match's progress (whose decision, its last move) kept with it, written with each move:
  // My games reads no move log. Rows written before have none until first read (MatchStore).
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN progress json;`,
  // A name's skeleton is now taken again after case-folding (a capital M folds to m, which
  // looks like rn). Names are ASCII, where that adds only m -> rn to a stored skeleton; a name
  // that would now clash with another keeps its old skeleton.
  (S) => `
   UPDATE ${S}.accounts AS a SET skeleton = replace(a.skeleton, 'm', 'rn')
   WHERE a.skeleton LIKE '%m%' AND a.skeleton NOT LIKE 'deleted:%'
     AND NOT EXISTS (SELECT 1 FROM ${S}.accounts b WHERE b.skeleton = replace(a.skeleton, 'm', 'rn'));`,
  // Rated play (issue 48): a match asked to be rated, its pool, why it does not count after
  // all, each seat's change at its end; the account holding each seat; each account's rating
  // per pool, and every change to it (kept when the match is removed: no reference to it).
  (S) => `
   ALTER TABLE ${S}.matches ADD COLUMN rated boolean NOT NULL DEFAULT false;
   ALTER TABLE ${S}.matches ADD COLUMN pool text;
   ALTER TABLE ${S}.matches ADD COLUMN unrated text;
   ALTER TABLE ${S}.matches ADD COLUMN ratings json;
   ALTER TABLE ${S}.seats ADD COLUMN account_id text;
   CREATE TABLE ${S}.ratings (
     account_id text NOT NULL,
     pool text NOT NULL,
     rating double precision NOT NULL,
     deviation double precision NOT NULL,
     volatility double precision NOT NULL,
     games integer NOT NULL,
     updated_at timestamptz NOT NULL,
     PRIMARY KEY (account_id, pool)
   );
   CREATE TABLE ${S}.rating_history (
     account_id text NOT NULL,
     pool text NOT NULL,
     match_id text NOT NULL,
     games integer NOT NULL,
     rating_before double precision NOT NULL,
     rating_after double precision NOT NULL,
     deviation_after double precision NOT NULL,
     at timestamptz NOT NULL,
     PRIMARY KEY (account_id, pool, games),
     UNIQUE (account_id, pool, match_id)
   );`,
];
