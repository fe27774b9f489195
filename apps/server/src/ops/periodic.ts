import type { TimeSource } from './time.ts';

/**
 * A job run at once on start, then again `everyMs` after each run ends, or after `backlogMs`
 * when a run reports it left work behind; on the injected clock, one run at a time. Stopping
 * waits for a run under way.
 */
export class Periodic {
  private timer: unknown;
  private running: Promise<unknown> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly time: TimeSource,
    /** One run; resolves true when it stopped at its batch's limit with more left to do. */
    private readonly job: () => Promise<boolean>,
    private readonly everyMs: number,
    private readonly backlogMs: number,
  ) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.time.clearTimer(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = this.time.setTimer(() => {
      const run = this.job();
      this.running = run;
      void run.then((more) => this.schedule(more ? this.backlogMs : this.everyMs));
    }, ms);
  }
}
