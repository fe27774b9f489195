/** A handover as a try at its code finds it. */
export interface HandoverTry {
  /** The seats sealed with the code (empty once used or expired). */
  sealed: string;
  expiresAt: string;
  usedAt: string | null;
  /** Tries at its code so far, this one included when counted. */
  tries: number;
  /** Whether this try was counted: false once the code had all its tries. */
  counted: boolean;
}

/** Seats handed over to another browser, sealed with a one-time code, for minutes. */
export interface HandoverStore {
  /**
   * Keeps a handover of seats to another browser, sealed with its one-time code, under `key`
   * until `expiresAt` (ISO). Meanwhile the seats of handovers expired at `now` are forgotten,
   * and handovers expired before `forgetBefore` dropped. False, keeping nothing, when `key`
   * is taken.
   */
  putHandover(
    key: string,
    sealed: string,
    times: { expiresAt: string; now: string; forgetBefore: string },
  ): Promise<boolean>;
  /**
   * A try at the handover under `key`: counted, on every instance, unless it had `maxTries`
   * already (`counted` says which). The handover as it stands after; undefined when none.
   */
  tryHandover(key: string, maxTries: number): Promise<HandoverTry | undefined>;
  /** Marks the handover under `key` used at `now` and forgets its seats, once: false when it was used already. */
  useHandover(key: string, now: string): Promise<boolean>;
}
