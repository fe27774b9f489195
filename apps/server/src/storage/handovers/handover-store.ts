/** Seats handed over to another browser, sealed with a one-time code, for minutes. */
export interface HandoverStore {
  /**
   * Keeps a handover of seats to another browser, sealed with its one-time code, under `key`
   * until `expiresAt` (ISO); handovers expired at `now` are dropped meanwhile.
   */
  putHandover(key: string, sealed: string, expiresAt: string, now: string): Promise<void>;
  /** Takes a handover out, once, on every instance: undefined when none or it expired at `now`. */
  takeHandover(key: string, now: string): Promise<string | undefined>;
}
