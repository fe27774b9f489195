/** Where the server reads the time and sets its timers; tests inject a clock they move by hand. */
export interface TimeSource {
  now(): number;
  setTimer(callback: () => void, ms: number): unknown;
  clearTimer(handle: unknown): void;
}

export const systemTime: TimeSource = {
  now: () => Date.now(),
  setTimer: (callback, ms) => {
    const timer = setTimeout(callback, ms);
    // A pending clock must not keep a stopping process alive.
    timer.unref();
    return timer;
  },
  clearTimer: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
