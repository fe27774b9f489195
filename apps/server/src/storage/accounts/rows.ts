import { iso, json, type Row, text } from '../database/columns.ts';
import type { AccountRecord, NameClash, PasskeyRecord } from './account-store.ts';

const isoOrNull = (value: unknown) => (value == null ? null : iso(value));

export const ACCOUNT_COLUMNS =
  'account_id, username, name_key, skeleton, created_at, disabled_at, deleted_at';
export const PASSKEY_COLUMNS =
  'credential_id, account_id, public_key, counter, transports, name, created_at, last_used_at';

export const accountValues = (a: AccountRecord) => [
  a.accountID,
  a.username,
  a.nameKey,
  a.skeleton,
  a.createdAt,
  a.disabledAt,
  a.deletedAt,
];

export const passkeyValues = (p: PasskeyRecord) => [
  p.credentialID,
  p.accountID,
  p.publicKey,
  p.counter,
  JSON.stringify(p.transports),
  p.name,
  p.createdAt,
  p.lastUsedAt,
];

export const accountRecord = (row: Row): AccountRecord => ({
  accountID: text(row.account_id),
  username: text(row.username),
  nameKey: text(row.name_key),
  skeleton: text(row.skeleton),
  createdAt: iso(row.created_at),
  disabledAt: isoOrNull(row.disabled_at),
  deletedAt: isoOrNull(row.deleted_at),
});

export const passkeyRecord = (row: Row): PasskeyRecord => ({
  credentialID: text(row.credential_id),
  accountID: text(row.account_id),
  publicKey: text(row.public_key),
  counter: Number(row.counter),
  transports: json<string[]>(row.transports),
  name: text(row.name),
  createdAt: iso(row.created_at),
  lastUsedAt: isoOrNull(row.last_used_at),
});

/** The clash a name's key or skeleton meets, from the rows holding either (the key first). */
export function nameClashOf(rows: Row[], nameKey: string): NameClash | undefined {
  const taken = rows.find((r) => r.name_key === nameKey);
  if (taken) return { clash: 'taken', username: text(taken.username) };
  return rows[0] && { clash: 'too-close', username: text(rows[0].username) };
}
