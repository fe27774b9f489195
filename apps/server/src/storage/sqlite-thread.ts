import type { MoveWrite } from './move-write.ts';
import type { Store } from './store.ts';

/** The store's methods the main thread forwards to the store's thread as they are. */
export type ForwardedMethod = Exclude<
  {
    [K in keyof Store]: Store[K] extends (...args: never[]) => Promise<unknown> ? K : never;
  }[keyof Store],
  'commitMove' | 'inSweepTurn' | 'close'
>;

/** What the store's thread is given at its start. */
export interface StoreThreadData {
  dataDir: string;
  /** Where the thread says whether it opened the file: see `reportOpening`. */
  opening: SharedArrayBuffer;
}

export type ToStoreThread =
  | { kind: 'call'; id: number; method: ForwardedMethod; args: unknown[] }
  /** One group of moves: the moves of one turn of the main thread's event loop. */
  | { kind: 'moves'; id: number; writes: MoveWrite[] }
  | { kind: 'close' };

/** A move's outcome: stored or stale (a boolean), or failed. */
export type MoveOutcome = boolean | { error: Error };

export type FromStoreThread =
  | { kind: 'answer'; id: number; value?: unknown; error?: Error }
  | { kind: 'moves'; id: number; outcomes: MoveOutcome[] }
  | { kind: 'closed' };

/**
 * The opening handshake: the main thread waits (Atomics.wait) until the store's thread has
 * opened the file and taken its lock, so that opening the store stays synchronous and a second
 * owner of DATA_DIR is refused at once. Layout: [state, message length] as int32, then the
 * failure's message in UTF-8.
 */
export const OPENING_BYTES = 4096;
const WAITING = 0;
const OPENED = 1;
const FAILED = 2;
const HEADER = 8;

export function reportOpening(opening: SharedArrayBuffer, error?: unknown): void {
  const flags = new Int32Array(opening, 0, 2);
  if (error !== undefined) {
    const message = error instanceof Error ? error.message : String(error);
    const { written } = new TextEncoder().encodeInto(
      message,
      new Uint8Array(opening, HEADER, OPENING_BYTES - HEADER),
    );
    Atomics.store(flags, 1, written);
  }
  Atomics.store(flags, 0, error === undefined ? OPENED : FAILED);
  Atomics.notify(flags, 0);
}

/** Blocks until the store's thread reports; answers its failure's message, if any. */
export function awaitOpening(opening: SharedArrayBuffer, timeoutMs: number): string | undefined {
  const flags = new Int32Array(opening, 0, 2);
  if (Atomics.wait(flags, 0, WAITING, timeoutMs) === 'timed-out') {
    return `the store's thread did not open the data directory within ${timeoutMs} ms`;
  }
  if (Atomics.load(flags, 0) === OPENED) return undefined;
  const length = Atomics.load(flags, 1);
  // TextDecoder refuses views of shared memory: copy the message out first.
  return new TextDecoder().decode(new Uint8Array(opening, HEADER, length).slice());
}
