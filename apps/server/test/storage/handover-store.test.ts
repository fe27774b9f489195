import { expect, it } from 'vitest';
import { describeContract } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

describeContract('the handover store', (backend) => {
  const store = () => backend.stores().handovers;
  const twin = () => backend.twin().handovers;

  it('gives a handover out once, of two instances taking it at the same time to one', async () => {
    await store().putHandover('key-once', 'sealed seats', at(10), at(0));
    const taken = await Promise.all([
      twin().takeHandover('key-once', at(1)),
      store().takeHandover('key-once', at(1)),
    ]);
    expect(taken.filter((t) => t !== undefined)).toEqual(['sealed seats']);
    expect(await store().takeHandover('key-once', at(2))).toBeUndefined();
  });

  it('an expired handover is not given out, and expired ones are dropped when another is kept', async () => {
    await store().putHandover('key-late', 'late seats', at(10), at(0));
    expect(await store().takeHandover('key-late', at(10))).toBeUndefined();
    await store().putHandover('key-old', 'old seats', at(10), at(0));
    await store().putHandover('key-new', 'new seats', at(30), at(20));
    // Dropped when the new one was kept: no longer there even for a clock read wrong.
    expect(await store().takeHandover('key-old', at(5))).toBeUndefined();
    expect(await store().takeHandover('key-new', at(21))).toBe('new seats');
  });
});
