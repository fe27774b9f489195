/** A session as stored: its id is kept only as a hash (the cookie holds the id itself). */
export interface SessionRecord {
  sessionHash: string;
  accountID: string;
  createdAt: string;
  lastSeenAt: string;
  /** The user agent's short name ("Firefox on Linux"), for the settings page. */
  agent: string;
}

/** The signed-in account a live session names. */
export interface SessionAccount {
  accountID: string;
  username: string;
}

/** Sessions of signed-in accounts, known to every instance sharing the store. */
export interface SessionStore {
  /** Keeps a new session. */
  createSession(session: SessionRecord): Promise<void>;
  /**
   * The account of the session under `sessionHash`, its last use moved to `now`; undefined
   * when there is none, it was last seen at or before `idleBefore`, or its account is disabled
   * or deleted.
   */
  touchSession(
    sessionHash: string,
    now: string,
    idleBefore: string,
  ): Promise<SessionAccount | undefined>;
  /** Ends one session: false when there was none. */
  endSession(sessionHash: string): Promise<boolean>;
  /** Ends every session of an account; how many ended. */
  endAccountSessions(accountID: string): Promise<number>;
}
