import { expect, it } from 'vitest';
import { describeContract } from './contract.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
/** Kept until minute 10, stored at minute 0, forgetting what expired a day before. */
const times = (expires: number, now: number) => ({
  expiresAt: at(expires),
  now: at(now),
  forgetBefore: at(now - 24 * 60),
});

describeContract('the handover store', (backend) => {
  const store = () => backend.stores().handovers;
  const twin = () => backend.twin().handovers;

  it('refuses a second handover under a key that is taken, keeping the first', async () => {
    expect(await store().putHandover('key-taken', 'first seats', times(10, 0))).toBe(true);
    expect(await twin().putHandover('key-taken', 'second seats', times(10, 0))).toBe(false);
    expect((await store().tryHandover('key-taken', 5))?.sealed).toBe('first seats');
  });

  it('counts at most maxTries of tries sent to two instances at the same time', async () => {
    await store().putHandover('key-tries', 'sealed seats', times(10, 0));
    const tries = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? twin() : store()).tryHandover('key-tries', 5)),
    );
    expect(tries.filter((t) => t?.counted)).toHaveLength(5);
    expect(tries.filter((t) => t && !t.counted)).toHaveLength(7);
    expect(await store().tryHandover('key-tries', 5)).toMatchObject({ tries: 5, counted: false });
    expect(await store().tryHandover('key-nothing', 5)).toBeUndefined();
  });

  it('marks a handover used once, of two instances using it at the same time, and forgets its seats', async () => {
    await store().putHandover('key-once', 'sealed seats', times(10, 0));
    const used = await Promise.all([
      twin().useHandover('key-once', at(1)),
      store().useHandover('key-once', at(1)),
    ]);
    expect(used.filter(Boolean)).toHaveLength(1);
    expect(await store().tryHandover('key-once', 5)).toMatchObject({ sealed: '', usedAt: at(1) });
  });

  it('forgets the seats of an expired handover when another is kept, and drops it a day on', async () => {
    await store().putHandover('key-late', 'late seats', times(10, 0));
    await store().putHandover('key-next', 'next seats', times(30, 20));
    expect(await store().tryHandover('key-late', 5)).toMatchObject({
      sealed: '',
      expiresAt: at(10),
    });
    await store().putHandover('key-day', 'day seats', times(24 * 60 + 40, 24 * 60 + 30));
    expect(await store().tryHandover('key-late', 5)).toBeUndefined();
    expect((await store().tryHandover('key-day', 5))?.sealed).toBe('day seats');
  });
});
