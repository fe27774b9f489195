import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteStores } from '../src/storage/sqlite.ts';
import { signUpOf } from './storage/accounts.ts';
import { tempDir } from './support.ts';

const run = promisify(execFile);
const SERVER = path.resolve(import.meta.dirname, '..');
const dir = tempDir();
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const account = (args: string[]) =>
  run(process.execPath, ['--import', 'tsx', 'scripts/account.ts', ...args], {
    cwd: SERVER,
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({
      code: error.code,
      stdout: error.stdout,
    }),
  );

describe("the operator's account script", () => {
  it('disables an account by name, ending its sessions, enables it again, and says when there is no such account', async () => {
    const up = signUpOf('Lena', 'lena', 'lena');
    const stores = openSqliteStores(dir);
    await stores.accounts.signUp(up);
    await stores.close();

    expect(await account(['disable', 'LENA'])).toEqual({ code: 0, stdout: 'LENA: disabled\n' });
    let reopened = openSqliteStores(dir);
    expect((await reopened.accounts.account(up.account.accountID))?.disabledAt).not.toBeNull();
    expect(await reopened.sessions.endSession(up.session.sessionHash)).toBe(false);
    await reopened.close();

    expect(await account(['enable', 'lena'])).toEqual({ code: 0, stdout: 'lena: enabled\n' });
    reopened = openSqliteStores(dir);
    expect((await reopened.accounts.account(up.account.accountID))?.disabledAt).toBeNull();
    await reopened.close();

    expect(await account(['disable', 'nobody'])).toMatchObject({
      code: 1,
      stdout: 'nobody: no such account\n',
    });
    expect((await account(['delete', 'lena'])).code).toBe(2);
  });
});
