import { expect, it } from 'vitest';
import { describeContract } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describeContract('the WebAuthn challenge store', (backend) => {
  const store = () => backend.stores().webauthnChallenges;
  const twin = () => backend.twin().webauthnChallenges;

  it('gives a challenge once, of two instances taking it at once, with its data', async () => {
    await store().putChallenge(
      'c-once',
      'sign-up',
      { username: 'ivy' },
      { expiresAt: at(5), now: at(0) },
    );
    const both = await Promise.all([
      store().takeChallenge('c-once', 'sign-up', at(1)),
      twin().takeChallenge('c-once', 'sign-up', at(1)),
    ]);
    expect(both.filter((d) => d !== undefined)).toEqual([{ username: 'ivy' }]);
    expect(await store().takeChallenge('c-once', 'sign-up', at(1))).toBeUndefined();
  });

  it('refuses an expired challenge and one issued for the other ceremony', async () => {
    await store().putChallenge('c-late', 'sign-in', {}, { expiresAt: at(5), now: at(0) });
    expect(await twin().takeChallenge('c-late', 'sign-in', at(5))).toBeUndefined();
    await store().putChallenge('c-purpose', 'sign-in', {}, { expiresAt: at(5), now: at(0) });
    expect(await store().takeChallenge('c-purpose', 'sign-up', at(1))).toBeUndefined();
    expect(await store().takeChallenge('nothing', 'sign-in', at(1))).toBeUndefined();
  });
});
