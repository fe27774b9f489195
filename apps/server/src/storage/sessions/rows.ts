import type { SessionRecord } from './session-store.ts';

/** The columns of a new session, in the order both backends' INSERT names them. */
export const SESSION_COLUMNS = 'session_hash, account_id, created_at, last_seen_at, agent';

export const sessionValues = (s: SessionRecord): string[] => [
  s.sessionHash,
  s.accountID,
  s.createdAt,
  s.lastSeenAt,
  s.agent,
];
