import { expect, it } from 'vitest';
import { signUpOf } from './accounts.ts';
import { describeContract } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describeContract('the account store', (backend) => {
  const store = () => backend.stores().accounts;
  const twin = () => backend.twin().accounts;

  it('keeps a sign-up whole: account, passkey, recovery codes and session, read from the other instance', async () => {
    const up = signUpOf('Alice', 'alice', 'allce');
    expect(await store().signUp(up)).toBeUndefined();
    expect(await twin().account(up.account.accountID)).toEqual(up.account);
    expect(await twin().passkey(up.passkey.credentialID)).toEqual(up.passkey);
    expect(
      await backend.twin().sessions.touchSession(up.session.sessionHash, at(1), at(0)),
    ).toBeUndefined();
    expect(
      await backend.twin().sessions.touchSession(up.session.sessionHash, at(1), at(-1)),
    ).toEqual({
      accountID: up.account.accountID,
      username: 'Alice',
    });
    expect(await twin().useRecoveryCode('alice', up.recoveryCodeHashes[3] as string, at(2))).toBe(
      up.account.accountID,
    );
  });

  it('refuses a taken key and a skeleton held by another name, naming the name, and writes nothing', async () => {
    await store().signUp(signUpOf('Bob', 'bob', 'bob'));
    const taken = signUpOf('BOB', 'bob', 'BOB-skeleton');
    expect(await twin().signUp(taken)).toEqual({ clash: 'taken', username: 'Bob' });
    const close = signUpOf('B0b', 'b0b', 'bob');
    expect(await twin().signUp(close)).toEqual({ clash: 'too-close', username: 'Bob' });
    expect(await store().account(close.account.accountID)).toBeUndefined();
    expect(await store().passkey(close.passkey.credentialID)).toBeUndefined();
    expect(await store().nameClash('b0b', 'bob')).toEqual({ clash: 'too-close', username: 'Bob' });
    expect(await store().nameClash('bobby', 'bobby')).toBeUndefined();
  });

  it('keeps one of two sign-ups of confusable names sent to two instances at the same time', async () => {
    const results = await Promise.all([
      store().signUp(signUpOf('carol', 'carol', 'caro1-skel')),
      twin().signUp(signUpOf('caro1', 'caro1', 'caro1-skel')),
    ]);
    expect(results.filter((r) => r === undefined)).toHaveLength(1);
    expect(results.find((r) => r !== undefined)).toMatchObject({ clash: 'too-close' });
  });

  it('refuses a passkey counter that does not move forward, and keeps the stored one', async () => {
    const up = signUpOf('dave', 'dave', 'dave');
    up.passkey.counter = 5;
    await store().signUp(up);
    const id = up.passkey.credentialID;
    expect(await store().usePasskey(id, 5, at(1))).toBe(false);
    expect(await store().usePasskey(id, 4, at(1))).toBe(false);
    const both = await Promise.all([
      store().usePasskey(id, 6, at(2)),
      twin().usePasskey(id, 6, at(2)),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    expect(await store().passkey(id)).toMatchObject({ counter: 6, lastUsedAt: at(2) });
  });

  it('takes an authenticator that keeps no counter (zero each time)', async () => {
    const up = signUpOf('erin', 'erin', 'erin');
    await store().signUp(up);
    expect(await store().usePasskey(up.passkey.credentialID, 0, at(1))).toBe(true);
    expect(await store().usePasskey(up.passkey.credentialID, 0, at(2))).toBe(true);
  });

  it('uses a recovery code once, of two instances using it at once, and never for another name', async () => {
    const up = signUpOf('frank', 'frank', 'frank');
    await store().signUp(up);
    const code = up.recoveryCodeHashes[0] as string;
    expect(await store().useRecoveryCode('erin', code, at(1))).toBeUndefined();
    const both = await Promise.all([
      store().useRecoveryCode('frank', code, at(1)),
      twin().useRecoveryCode('frank', code, at(1)),
    ]);
    expect(both.filter((a) => a === up.account.accountID)).toHaveLength(1);
    expect(await store().useRecoveryCode('frank', code, at(2))).toBeUndefined();
    expect(await store().useRecoveryCode('frank', 'not-a-code', at(2))).toBeUndefined();
  });

  it('disables an account by its key and enables it again; a disabled account uses no recovery code', async () => {
    const up = signUpOf('Kim', 'kim', 'klm');
    await store().signUp(up);
    expect(await twin().setDisabled('kim', at(1))).toBe(up.account.accountID);
    expect(await store().account(up.account.accountID)).toMatchObject({ disabledAt: at(1) });
    expect(
      await store().useRecoveryCode('kim', up.recoveryCodeHashes[0] as string, at(2)),
    ).toBeUndefined();
    expect(await twin().setDisabled('kim', null)).toBe(up.account.accountID);
    expect(await store().useRecoveryCode('kim', up.recoveryCodeHashes[0] as string, at(3))).toBe(
      up.account.accountID,
    );
    expect(await store().setDisabled('nobody', at(1))).toBeUndefined();
  });

  it("adds a passkey to an account once, listed with the account's others", async () => {
    const up = signUpOf('Lars', 'lars', 'lars');
    await store().signUp(up);
    const second = {
      ...signUpOf('x', 'x', 'x').passkey,
      accountID: up.account.accountID,
      createdAt: at(5),
    };
    expect(await twin().addPasskey(second)).toBe(true);
    expect(await store().addPasskey(second)).toBe(false);
    expect(await store().passkeysOf(up.account.accountID)).toEqual([up.passkey, second]);
  });

  it('never removes the last passkey of an account without an unused recovery code, of two removals at once either', async () => {
    const up = signUpOf('Nina', 'nina', 'nlna');
    up.recoveryCodeHashes = ['only-code'];
    await store().signUp(up);
    const id = up.account.accountID;
    const second = { ...signUpOf('y', 'y', 'y').passkey, accountID: id };
    await store().addPasskey(second);
    expect(await store().removePasskey(id, 'no-such-passkey')).toBe('unknown');
    expect(await store().useRecoveryCode('nina', 'only-code', at(1))).toBe(id);
    const both = await Promise.all([
      store().removePasskey(id, up.passkey.credentialID),
      twin().removePasskey(id, second.credentialID),
    ]);
    expect(both.sort()).toEqual(['last', 'removed']);
    expect(await store().passkeysOf(id)).toHaveLength(1);
  });

  it('removes the last passkey while an unused recovery code is left', async () => {
    const up = signUpOf('Olga', 'olga', 'olga');
    await store().signUp(up);
    expect(await twin().removePasskey(up.account.accountID, up.passkey.credentialID)).toBe(
      'removed',
    );
    expect(await store().passkey(up.passkey.credentialID)).toBeUndefined();
  });

  it('deletes an account once, of two deletions at once: its sessions, passkeys and codes gone, its name still taken', async () => {
    const up = signUpOf('Zora', 'zora', 'zora');
    expect(await store().signUp(up)).toBeUndefined();
    const id = up.account.accountID;
    const both = await Promise.all([
      store().deleteAccount(id, 'deleted player', at(1)),
      twin().deleteAccount(id, 'deleted player', at(1)),
    ]);
    expect(both.sort()).toEqual([false, true]);
    expect((await twin().account(id))?.deletedAt).toBe(at(1));
    expect(await twin().passkey(up.passkey.credentialID)).toBeUndefined();
    expect(await twin().passkeysOf(id)).toEqual([]);
    expect(
      await backend.twin().sessions.touchSession(up.session.sessionHash, at(2), at(-1)),
    ).toBeUndefined();
    expect(await twin().useRecoveryCode('zora', up.recoveryCodeHashes[0] as string, at(2))).toBe(
      undefined,
    );
    expect(await twin().nameClash('zora', 'zora')).toEqual({ clash: 'taken', username: 'Zora' });
  });

  it("frees a deleted account's name and skeleton once it was deleted long enough, and no other", async () => {
    const gone = signUpOf('Yuri', 'yuri', 'yuri');
    const kept = signUpOf('Xena', 'xena', 'xena');
    const recent = signUpOf('Wes', 'wes', 'wes');
    for (const up of [gone, kept, recent]) await store().signUp(up);
    // Names the other tests' deletions left taken, freed first: what follows counts these alone.
    await twin().releaseNames(at(9));
    await store().deleteAccount(gone.account.accountID, 'deleted player', at(10));
    await store().deleteAccount(recent.account.accountID, 'deleted player', at(30));
    expect(await twin().releaseNames(at(20))).toBe(1);
    expect(await twin().releaseNames(at(20))).toBe(0);
    expect(await store().nameClash('yuri', 'yuri')).toBeUndefined();
    expect(await store().nameClash('xena', 'xena')).toEqual({ clash: 'taken', username: 'Xena' });
    expect(await store().nameClash('wes', 'wes')).toEqual({ clash: 'taken', username: 'Wes' });
    expect(await store().signUp(signUpOf('yuri', 'yuri', 'yuri'))).toBeUndefined();
  });
});
