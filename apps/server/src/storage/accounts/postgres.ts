import type { Row } from '../database/columns.ts';
import type { PostgresDatabase } from '../database/postgres-database.ts';
import { insertPostgresSession } from '../sessions/postgres.ts';
import type { AccountStore } from './account-store.ts';
import {
  ACCOUNT_COLUMNS,
  accountRecord,
  accountValues,
  nameClashOf,
  PASSKEY_COLUMNS,
  passkeyRecord,
  passkeyValues,
} from './rows.ts';

export function postgresAccountStore({ pool, S, inTransaction }: PostgresDatabase): AccountStore {
  const nameClash = async (nameKey: string, skeleton: string) => {
    const { rows } = await pool.query(
      `SELECT username, name_key FROM ${S}.accounts WHERE name_key = $1 OR skeleton = $2`,
      [nameKey, skeleton],
    );
    return nameClashOf(rows as Row[], nameKey);
  };
  return {
    nameClash,

    async signUp({ account, passkey, recoveryCodeHashes, session }) {
      // The unique key and skeleton decide between sign-ups at once on any instances: the
      // later insert waits for the earlier one's commit, then inserts nothing.
      const kept = await inTransaction(async (client) => {
        const { rowCount } = await client.query(
          `INSERT INTO ${S}.accounts (${ACCOUNT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
           ON CONFLICT DO NOTHING`,
          accountValues(account),
        );
        if (rowCount !== 1) return false;
        await client.query(
          `INSERT INTO ${S}.passkeys (${PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          passkeyValues(passkey),
        );
        await client.query(
          `INSERT INTO ${S}.recovery_codes (account_id, code_hash) SELECT $1, unnest($2::text[])`,
          [account.accountID, recoveryCodeHashes],
        );
        await insertPostgresSession(client, S, session);
        return true;
      });
      return kept ? undefined : await nameClash(account.nameKey, account.skeleton);
    },

    async account(accountID) {
      const { rows } = await pool.query(
        `SELECT ${ACCOUNT_COLUMNS} FROM ${S}.accounts WHERE account_id = $1`,
        [accountID],
      );
      return rows[0] && accountRecord(rows[0] as Row);
    },

    async accountNamed(nameKey) {
      const { rows } = await pool.query(
        `SELECT ${ACCOUNT_COLUMNS} FROM ${S}.accounts WHERE name_key = $1`,
        [nameKey],
      );
      return rows[0] && accountRecord(rows[0] as Row);
    },

    async passkeysOf(accountID) {
      const { rows } = await pool.query(
        `SELECT ${PASSKEY_COLUMNS} FROM ${S}.passkeys WHERE account_id = $1
         ORDER BY created_at, credential_id`,
        [accountID],
      );
      return (rows as Row[]).map(passkeyRecord);
    },

    async addPasskey(passkey) {
      const { rowCount } = await pool.query(
        `INSERT INTO ${S}.passkeys (${PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT DO NOTHING`,
        passkeyValues(passkey),
      );
      return rowCount === 1;
    },

    async removePasskey(accountID, credentialID) {
      return await inTransaction(async (client) => {
        // The account's row, locked: removals of its passkeys at once take turns.
        await client.query(`SELECT 1 FROM ${S}.accounts WHERE account_id = $1 FOR UPDATE`, [
          accountID,
        ]);
        const held = await client.query(
          `SELECT credential_id FROM ${S}.passkeys WHERE account_id = $1`,
          [accountID],
        );
        if (!(held.rows as Row[]).some((p) => p.credential_id === credentialID))
          return 'unknown' as const;
        const codes = await client.query(
          `SELECT count(*) AS n FROM ${S}.recovery_codes WHERE account_id = $1 AND used_at IS NULL`,
          [accountID],
        );
        if (held.rows.length === 1 && Number((codes.rows[0] as Row).n) === 0)
          return 'last' as const;
        await client.query(`DELETE FROM ${S}.passkeys WHERE credential_id = $1`, [credentialID]);
        return 'removed' as const;
      });
    },

    async passkey(credentialID) {
      const { rows } = await pool.query(
        `SELECT ${PASSKEY_COLUMNS} FROM ${S}.passkeys WHERE credential_id = $1`,
        [credentialID],
      );
      return rows[0] && passkeyRecord(rows[0] as Row);
    },

    async usePasskey(credentialID, counter, now) {
      const { rowCount } = await pool.query(
        `UPDATE ${S}.passkeys SET counter = $2, last_used_at = $3
         WHERE credential_id = $1 AND (counter < $2 OR (counter = 0 AND $2 = 0))`,
        [credentialID, counter, now],
      );
      return rowCount === 1;
    },

    async useRecoveryCode(nameKey, codeHash, now) {
      const { rows } = await pool.query(
        `UPDATE ${S}.recovery_codes SET used_at = $3
         WHERE code_hash = $2 AND used_at IS NULL AND account_id = (
           SELECT account_id FROM ${S}.accounts
           WHERE name_key = $1 AND disabled_at IS NULL AND deleted_at IS NULL)
         RETURNING account_id`,
        [nameKey, codeHash, now],
      );
      return rows[0] ? String((rows[0] as Row).account_id) : undefined;
    },

    async setDisabled(nameKey, disabledAt) {
      const { rows } = await pool.query(
        `UPDATE ${S}.accounts SET disabled_at = $2 WHERE name_key = $1 RETURNING account_id`,
        [nameKey, disabledAt],
      );
      return rows[0] ? String((rows[0] as Row).account_id) : undefined;
    },

    async deleteAccount(accountID, deletedName, now) {
      return await inTransaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE ${S}.accounts SET deleted_at = $2 WHERE account_id = $1 AND deleted_at IS NULL`,
          [accountID, now],
        );
        if (rowCount !== 1) return false;
        await client.query(
          `UPDATE ${S}.seats s SET name = $2 FROM ${S}.account_seats a, ${S}.matches m
           WHERE a.account_id = $1 AND s.match_id = a.match_id AND s.seat = a.seat
             AND m.match_id = a.match_id AND m.status = 'finished'`,
          [accountID, deletedName],
        );
        for (const table of ['account_seats', 'sessions', 'passkeys', 'recovery_codes']) {
          await client.query(`DELETE FROM ${S}.${table} WHERE account_id = $1`, [accountID]);
        }
        return true;
      });
    },

    async releaseNames(deletedBefore) {
      const { rowCount } = await pool.query(
        `UPDATE ${S}.accounts SET name_key = 'deleted:' || account_id, skeleton = 'deleted:' || account_id
         WHERE deleted_at <= $1 AND name_key NOT LIKE 'deleted:%'`,
        [deletedBefore],
      );
      return rowCount ?? 0;
    },
  };
}
