/**
 * Durable writes without blocking the event loop: a write is acknowledged once an fsync of
 * the file it went to has run after it. The fsync runs on libuv's thread pool; writes made
 * while one runs wait for the next, so each fsync covers every write made before it began.
 */
export interface WalSync {
  /** Resolves once everything written before this call is on disk. */
  afterWrite(): Promise<void>;
  /** Throws when an fsync has failed: the file's recent writes may be lost, so no later write may be acknowledged. */
  check(): void;
}

export function walSync(sync: () => Promise<void>): WalSync {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  let failed: Error | null = null;

  const start = (): Promise<void> => {
    const done = sync().then(
      () => {
        if (running === done) running = null;
      },
      (error: unknown) => {
        // After a failed fsync the kernel may have dropped the dirty pages: retrying proves nothing.
        failed = new Error('the data directory could not be synced; restart the server', {
          cause: error,
        });
        if (running === done) running = null;
        throw failed;
      },
    );
    running = done;
    return done;
  };

  return {
    afterWrite() {
      if (failed) return Promise.reject(failed);
      if (!running) return start();
      // Queued behind the running fsync, which may have begun before this write.
      queued ??= running.then(
        () => {
          queued = null;
          return start();
        },
        () => {
          queued = null;
          return Promise.reject(failed);
        },
      );
      return queued;
    },
    check() {
      if (failed) throw failed;
    },
  };
}
