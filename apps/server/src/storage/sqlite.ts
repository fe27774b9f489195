import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { type MoveWrite, moveWrite } from './move-write.ts';
import { sharedAgain } from './rows.ts';
import {
  awaitOpening,
  type ForwardedMethod,
  type FromStoreThread,
  OPENING_BYTES,
  type StoreThreadData,
  type ToStoreThread,
} from './sqlite-thread.ts';
import type { MatchRecord, Store } from './store.ts';

export { SQLITE_FILE } from './sqlite-connection.ts';

/** The embedded store, and the thread that owns its file (tests stop it to see a crash). */
export interface SqliteStore extends Store {
  readonly thread: Worker;
}

/** Long enough for a cold start of the thread from source (tests load it through tsx). */
const OPEN_TIMEOUT_MS = 30_000;

interface Waiter {
  resolve: (value: never) => void;
  reject: (error: unknown) => void;
}

/**
 * The store's thread: bundled beside the server as store-worker.js; from source (tests, the
 * dev server) the TypeScript file itself, loaded through tsx.
 */
function spawn(workerData: StoreThreadData): Worker {
  if (!import.meta.url.endsWith('.ts')) {
    return new Worker(new URL('./store-worker.js', import.meta.url), { workerData });
  }
  const entry = new URL('./sqlite-worker.ts', import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData },
  );
}

/**
 * The embedded store: one SQLite file under DATA_DIR, owned by a worker thread (see
 * sqlite-connection.ts for the file, its lock, its group commit and its fsyncs), so that
 * writing and syncing it leaves the server's event loop. The moves of one turn of the event
 * loop cross to the thread as one message of strings; each is answered once its group is
 * committed and the WAL synced, as before. Everything else is forwarded call by call.
 * Opening blocks until the thread holds the file, so a second owner is refused at once.
 */
export function openSqliteStore(dataDir: string): SqliteStore {
  fs.mkdirSync(dataDir, { recursive: true });
  const opening = new SharedArrayBuffer(OPENING_BYTES);
  const thread = spawn({ dataDir, opening });
  const refused = awaitOpening(opening, OPEN_TIMEOUT_MS);
  if (refused !== undefined) {
    void thread.terminate();
    throw new Error(refused);
  }

  /** Set once the thread is gone unasked: every answer still owed, and every later call, fails with it. */
  let failure: Error | null = null;
  let closing: Promise<void> | null = null;
  let nextID = 0;
  const calls = new Map<number, Waiter>();
  const groups = new Map<number, Waiter[]>();
  // Group commit across the threads: the moves handed in while a group is on the store's
  // thread (committed, then the WAL synced) cross together as the next group, one message,
  // so that a message's fixed cost is paid per group rather than per move.
  let batch: MoveWrite[] = [];
  let batchWaiters: Waiter[] = [];
  let groupInFlight = false;
  /**
   * Everything handed to the thread in one turn of the event loop crosses as one message: each
   * message wakes the thread, and on a busy machine a wake-up costs the event loop more than the
   * copy (measured: calls posted one by one took 4.6 % of it).
   */
  let outbox: ToStoreThread[] = [];
  let flushScheduled = false;

  // The thread keeps the process alive only while it owes answers, as an fsync would.
  let owed = 0;
  thread.unref();
  const owe = (delta: number) => {
    owed += delta;
    if (owed === delta && delta > 0) thread.ref();
    else if (owed === 0) thread.unref();
  };

  const fail = (error: Error) => {
    failure ??= new Error(`the store's thread stopped (${error.message}); restart the server`, {
      cause: error,
    });
    for (const waiter of calls.values()) waiter.reject(failure);
    for (const waiters of groups.values()) for (const w of waiters) w.reject(failure);
    for (const w of batchWaiters) w.reject(failure);
    calls.clear();
    groups.clear();
    batch = [];
    batchWaiters = [];
    owed = 0;
  };
  let closed: () => void = () => {};
  const exited = new Promise<void>((resolve) => (closed = resolve));
  // Answers to calls already failed (the thread died meanwhile) find no waiter: dropped.
  const receive = (message: FromStoreThread) => {
    if (message.kind === 'answer') {
      const waiter = calls.get(message.id);
      if (!waiter) return;
      calls.delete(message.id);
      owe(-1);
      if ('error' in message) waiter.reject(message.error);
      else waiter.resolve(message.value as never);
    } else if (message.kind === 'moves') {
      const waiters = groups.get(message.id);
      if (!waiters) return;
      groups.delete(message.id);
      owe(-1);
      groupInFlight = false;
      if (batch.length > 0) scheduleFlush();
      message.outcomes.forEach((outcome, i) => {
        const waiter = waiters[i] as Waiter;
        if (typeof outcome === 'boolean') waiter.resolve(outcome as never);
        else waiter.reject(outcome.error);
      });
    }
  };
  thread.on('message', (messages: FromStoreThread[]) => {
    for (const message of messages) receive(message);
  });
  thread.on('error', (error) => fail(error));
  thread.on('exit', (code) => {
    if (!closing) fail(new Error(`exit code ${code}`));
    else if (calls.size > 0 || groups.size > 0) fail(new Error('closed with answers owed'));
    closed();
  });

  const unavailable = () => failure ?? (closing ? new Error('the store is closed') : null);

  const call = <T>(method: ForwardedMethod, args: unknown[]): Promise<T> => {
    const refusal = unavailable();
    if (refusal) return Promise.reject(refusal);
    return new Promise<T>((resolve, reject) => {
      const id = nextID++;
      calls.set(id, { resolve: resolve as (value: never) => void, reject });
      owe(1);
      post({ kind: 'call', id, method, args });
    });
  };
  const forward =
    <K extends ForwardedMethod>(method: K) =>
    (...args: Parameters<Store[K]>) =>
      call<Awaited<ReturnType<Store[K]>>>(method, args);

  const takeGroup = () => {
    if (batch.length === 0) return;
    groupInFlight = true;
    const id = nextID++;
    groups.set(id, batchWaiters);
    owe(1);
    outbox.push({ kind: 'moves', id, writes: batch });
    batch = [];
    batchWaiters = [];
  };
  const flush = () => {
    flushScheduled = false;
    if (!groupInFlight) takeGroup();
    if (outbox.length === 0) return;
    thread.postMessage(outbox);
    outbox = [];
  };
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(flush);
  };
  const post = (message: ToStoreThread) => {
    outbox.push(message);
    scheduleFlush();
  };

  return {
    kind: 'sqlite',
    thread,
    createMatch: forward('createMatch'),
    async getMatch(matchID) {
      const match = await call<MatchRecord | undefined>('getMatch', [matchID]);
      return match && sharedAgain(match);
    },
    async listPublicMatches(query) {
      return (await call<MatchRecord[]>('listPublicMatches', [query])).map(sharedAgain);
    },
    claimSeat: forward('claimSeat'),
    finishMatch: forward('finishMatch'),
    loadState: forward('loadState'),
    commitMove(matchID, expectedStateID, next, move, result, clock?) {
      const refusal = unavailable();
      if (refusal) return Promise.reject(refusal);
      const write = moveWrite(matchID, expectedStateID, next, move, result, clock);
      return new Promise<boolean>((resolve, reject) => {
        batch.push(write);
        batchWaiters.push({ resolve: resolve as (value: never) => void, reject });
        if (!groupInFlight) scheduleFlush();
      });
    },
    async listRunningClocks() {
      return (await call<MatchRecord[]>('listRunningClocks', [])).map(sharedAgain);
    },
    listDueMatches: forward('listDueMatches'),
    takeDueWarnings: forward('takeDueWarnings'),
    // One process owns the file: no other sweep can run meanwhile.
    inSweepTurn(work) {
      return work();
    },
    setClock: forward('setClock'),
    setAway: forward('setAway'),
    offerRematch: forward('offerRematch'),
    linkRematch: forward('linkRematch'),
    saveDeck: forward('saveDeck'),
    getDeck: forward('getDeck'),
    listDecks: forward('listDecks'),
    readMoves: forward('readMoves'),
    addChatLine: forward('addChatLine'),
    readChat: forward('readChat'),
    setChatOff: forward('setChatOff'),
    setMuting: forward('setMuting'),
    removeMatches: forward('removeMatches'),
    serverSecret: forward('serverSecret'),
    putHandover: forward('putHandover'),
    takeHandover: forward('takeHandover'),
    savePushSubscription: forward('savePushSubscription'),
    listPushSubscriptions: forward('listPushSubscriptions'),
    removePushSubscription: forward('removePushSubscription'),
    removePushEndpoint: forward('removePushEndpoint'),
    removeMatchPushSubscriptions: forward('removeMatchPushSubscriptions'),
    ping: forward('ping'),
    close() {
      if (!closing) {
        if (failure) {
          closing = exited;
          void thread.terminate();
        } else {
          // The moves handed in go first, even behind a group in flight: closing answers every
          // move handed in.
          takeGroup();
          outbox.push({ kind: 'close' });
          flush();
          thread.ref();
          closing = exited;
        }
      }
      return closing;
    },
  };
}
