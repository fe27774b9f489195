/**
 * What a test client waits on: a predicate checked again each time the client says something
 * arrived, so a test awaits the frame it needs instead of sleeping.
 */
export class Arrivals {
  private waiters: (() => void)[] = [];

  /** Something arrived: every waiter checks its predicate again. */
  notify(): void {
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves when `predicate` holds, checked after every arrival; rejects after `ms`. */
  async until(predicate: () => boolean, what: string, ms = 10_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!predicate()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}
