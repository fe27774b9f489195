import { expect, it } from 'vitest';
import { signUpOf } from './accounts.ts';
import { describeContract } from './contract.ts';

const at = (day: number) => new Date(Date.UTC(2026, 0, 1 + day)).toISOString();

describeContract('the session store', (backend) => {
  const store = () => backend.stores().sessions;
  const twin = () => backend.twin().sessions;

  it('finds a session on the other instance and ends it once idle past its limit', async () => {
    const up = signUpOf('gina', 'gina', 'gina');
    await backend.stores().accounts.signUp(up);
    const hash = up.session.sessionHash;
    expect(await twin().touchSession(hash, at(20), at(-30))).toMatchObject({ username: 'gina' });
    // Last seen on day 20: still live on day 49 (idle since day 19 at most), gone on day 51.
    expect(await store().touchSession(hash, at(49), at(19))).toMatchObject({ username: 'gina' });
    expect(await store().touchSession(hash, at(80), at(50))).toBeUndefined();
  });

  it('ends one session, then every session of an account, on every instance', async () => {
    const up = signUpOf('hugo', 'hugo', 'hugo');
    await backend.stores().accounts.signUp(up);
    const more = ['hugo-2', 'hugo-3'].map((sessionHash) => ({ ...up.session, sessionHash }));
    for (const s of more) await twin().createSession(s);
    expect(await store().endSession(up.session.sessionHash)).toBe(true);
    expect(await store().endSession(up.session.sessionHash)).toBe(false);
    expect(await twin().endAccountSessions(up.account.accountID)).toBe(2);
    for (const s of more)
      expect(await store().touchSession(s.sessionHash, at(1), at(-1))).toBeUndefined();
  });
});
