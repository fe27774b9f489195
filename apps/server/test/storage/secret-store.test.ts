import { expect, it } from 'vitest';
import { describeContract } from './contract.ts';

describeContract('the secret store', (backend) => {
  const store = () => backend.stores().secrets;
  const twin = () => backend.twin().secrets;

  it('keeps the first server secret made: later calls and every instance read that one', async () => {
    const made = await Promise.all([
      store().serverSecret('test-key', 'first'),
      twin().serverSecret('test-key', 'second'),
    ]);
    expect(made[0]).toBe(made[1]);
    expect(await store().serverSecret('test-key', 'third')).toBe(made[0]);
    expect(await store().serverSecret('other-key', 'fourth')).toBe('fourth');
  });
});
