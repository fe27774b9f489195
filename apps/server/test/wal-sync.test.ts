import { describe, expect, it } from 'vitest';
import { walSync } from '../src/storage/database/wal-sync.ts';

/** An fsync that finishes when the test says so. */
function heldSyncs() {
  const releases: (() => void)[] = [];
  const sync = () => new Promise<void>((resolve) => releases.push(resolve));
  return { sync, releases };
}

describe('walSync', () => {
  it('writes made during an fsync share one more fsync, not one each', async () => {
    const { sync, releases } = heldSyncs();
    const syncs = walSync(sync);
    const first = syncs.afterWrite();
    const during = Array.from({ length: 10 }, () => syncs.afterWrite());
    expect(releases).toHaveLength(1);
    releases[0]?.();
    await first;
    // The next fsync begins as soon as the first ends, for every write made meanwhile.
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(2);
    releases[1]?.();
    await Promise.all(during);
    expect(releases).toHaveLength(2);
  });

  it('a write made after the queued fsync began waits for a later one', async () => {
    const { sync, releases } = heldSyncs();
    const syncs = walSync(sync);
    void syncs.afterWrite();
    const queued = syncs.afterWrite();
    releases[0]?.();
    await new Promise((resolve) => setImmediate(resolve));
    expect(releases).toHaveLength(2);
    let laterDone = false;
    const later = syncs.afterWrite().then(() => {
      laterDone = true;
    });
    releases[1]?.();
    await queued;
    expect(laterDone).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    releases[2]?.();
    await later;
    expect(releases).toHaveLength(3);
  });

  it('a failed fsync fails every write waiting on it and every write after it', async () => {
    let calls = 0;
    const syncs = walSync(async () => {
      calls++;
      throw new Error('EIO');
    });
    const waiting = [syncs.afterWrite(), syncs.afterWrite()];
    for (const w of waiting) await expect(w).rejects.toThrow(/could not be synced/);
    await expect(syncs.afterWrite()).rejects.toThrow(/could not be synced/);
    expect(() => syncs.check()).toThrow(/could not be synced/);
    expect(calls).toBe(1);
  });
});
