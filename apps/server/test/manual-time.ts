import type { TimeSource } from '../src/ops/time.ts';

/** A clock for tests: time stands still until `advance` moves it, firing the timers due. */
export class ManualTime implements TimeSource {
  private timers = new Map<number, { at: number; callback: () => void }>();
  private nextHandle = 1;

  // Starts at the real time unless a test gives another (every time the server stores is this one).
  constructor(private current = Date.now()) {}

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, ms: number): unknown {
    const handle = this.nextHandle++;
    this.timers.set(handle, { at: this.current + ms, callback });
    return handle;
  }

  clearTimer(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** Moves time on without firing anything: an instance whose timer was never armed. */
  skip(ms: number): void {
    this.current += ms;
  }

  /** Moves time on by `ms`, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const until = this.current + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, t]) => t.at <= until)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.current = Math.max(this.current, due[1].at);
      due[1].callback();
    }
    this.current = until;
  }
}
