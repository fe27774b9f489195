import type { SqliteDatabase } from '../database/sqlite-database.ts';
import { insertSqliteSession } from '../sessions/sqlite.ts';
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

export function sqliteAccountStore(db: SqliteDatabase): AccountStore {
  const nameClash = (nameKey: string, skeleton: string) =>
    nameClashOf(
      db.all('SELECT username, name_key FROM accounts WHERE name_key = ? OR skeleton = ?', [
        nameKey,
        skeleton,
      ]),
      nameKey,
    );
  return {
    async nameClash(nameKey, skeleton) {
      return nameClash(nameKey, skeleton);
    },

    async signUp({ account, passkey, recoveryCodeHashes, session }) {
      // One owner of the file, one transaction at a time: the check and the writes cannot interleave.
      return await db.write(() =>
        db.transaction(() => {
          const clash = nameClash(account.nameKey, account.skeleton);
          if (clash) return clash;
          db.run(
            `INSERT INTO accounts (${ACCOUNT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)`,
            accountValues(account),
          );
          db.run(
            `INSERT INTO passkeys (${PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            passkeyValues(passkey),
          );
          for (const hash of recoveryCodeHashes) {
            db.run('INSERT INTO recovery_codes (account_id, code_hash) VALUES (?, ?)', [
              account.accountID,
              hash,
            ]);
          }
          insertSqliteSession(db, session);
          return undefined;
        }),
      );
    },

    async account(accountID) {
      const row = db.one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE account_id = ?`, [
        accountID,
      ]);
      return row && accountRecord(row);
    },

    async accountNamed(nameKey) {
      const row = db.one(`SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE name_key = ?`, [nameKey]);
      return row && accountRecord(row);
    },

    async passkeysOf(accountID) {
      return db
        .all(
          `SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE account_id = ? ORDER BY created_at, credential_id`,
          [accountID],
        )
        .map(passkeyRecord);
    },

    async addPasskey(passkey) {
      const added = await db.write(() =>
        db.run(
          `INSERT INTO passkeys (${PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
          passkeyValues(passkey),
        ),
      );
      return added.changes === 1;
    },

    async removePasskey(accountID, credentialID) {
      return await db.write(() =>
        db.transaction(() => {
          const held = db.all('SELECT credential_id FROM passkeys WHERE account_id = ?', [
            accountID,
          ]);
          if (!held.some((p) => p.credential_id === credentialID)) return 'unknown' as const;
          const codes = db.one(
            'SELECT count(*) AS n FROM recovery_codes WHERE account_id = ? AND used_at IS NULL',
            [accountID],
          );
          if (held.length === 1 && Number(codes?.n) === 0) return 'last' as const;
          db.run('DELETE FROM passkeys WHERE credential_id = ?', [credentialID]);
          return 'removed' as const;
        }),
      );
    },

    async passkey(credentialID) {
      const row = db.one(`SELECT ${PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = ?`, [
        credentialID,
      ]);
      return row && passkeyRecord(row);
    },

    async usePasskey(credentialID, counter, now) {
      const used = await db.write(() =>
        db.run(
          `UPDATE passkeys SET counter = ?, last_used_at = ?
           WHERE credential_id = ? AND (counter < ? OR (counter = 0 AND ? = 0))`,
          [counter, now, credentialID, counter, counter],
        ),
      );
      return used.changes === 1;
    },

    async useRecoveryCode(nameKey, codeHash, now) {
      const used = await db.write(() =>
        db.one(
          `UPDATE recovery_codes SET used_at = ?
           WHERE code_hash = ? AND used_at IS NULL AND account_id = (
             SELECT account_id FROM accounts
             WHERE name_key = ? AND disabled_at IS NULL AND deleted_at IS NULL)
           RETURNING account_id`,
          [now, codeHash, nameKey],
        ),
      );
      return used && String(used.account_id);
    },

    async setDisabled(nameKey, disabledAt) {
      const changed = await db.write(() =>
        db.one('UPDATE accounts SET disabled_at = ? WHERE name_key = ? RETURNING account_id', [
          disabledAt,
          nameKey,
        ]),
      );
      return changed && String(changed.account_id);
    },

    async deleteAccount(accountID, deletedName, now) {
      return await db.write(() =>
        db.transaction(() => {
          const deleted = db.run(
            'UPDATE accounts SET deleted_at = ? WHERE account_id = ? AND deleted_at IS NULL',
            [now, accountID],
          );
          if (deleted.changes !== 1) return false;
          db.run(
            `UPDATE seats SET name = ? WHERE (match_id, seat) IN
               (SELECT a.match_id, a.seat FROM account_seats a JOIN matches m USING (match_id)
                WHERE a.account_id = ? AND m.status = 'finished')`,
            [deletedName, accountID],
          );
          for (const table of ['account_seats', 'sessions', 'passkeys', 'recovery_codes']) {
            db.run(`DELETE FROM ${table} WHERE account_id = ?`, [accountID]);
          }
          return true;
        }),
      );
    },

    async releaseNames(deletedBefore) {
      const released = await db.write(() =>
        db.run(
          `UPDATE accounts SET name_key = 'deleted:' || account_id, skeleton = 'deleted:' || account_id
           WHERE deleted_at <= ? AND name_key NOT LIKE 'deleted:%'`,
          [deletedBefore],
        ),
      );
      return Number(released.changes);
    },
  };
}
