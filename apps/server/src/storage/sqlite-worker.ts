import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteConnection, type SqliteConnection } from './sqlite-connection.ts';
import {
  type FromStoreThread,
  type MoveOutcome,
  reportOpening,
  type StoreThreadData,
  type ToStoreThread,
} from './sqlite-thread.ts';

// The store's thread: owns the SQLite connection, so the commits and the WAL's fsyncs of the
// group commit run beside the server's event loop rather than on it.

const { dataDir, opening } = workerData as StoreThreadData;
const port = parentPort;

/** Errors cross the thread as Error objects: anything else is wrapped in one. */
const asError = (error: unknown): Error =>
  error instanceof Error ? error : new Error(String(error));

// The answers ready in one turn of this thread's event loop (a group's fsync answers many)
// cross as one message.
let outbox: FromStoreThread[] = [];
let flushScheduled = false;
const flush = () => {
  flushScheduled = false;
  if (outbox.length === 0) return;
  port?.postMessage(outbox);
  outbox = [];
};
const answer = (message: FromStoreThread) => {
  outbox.push(message);
  if (flushScheduled) return;
  flushScheduled = true;
  setImmediate(flush);
};

/** Work whose answer is not in the outbox yet: closing answers everything first. */
const unanswered = new Set<Promise<void>>();
const answerLater = (work: Promise<FromStoreThread>) => {
  const posted = work.then(answer);
  unanswered.add(posted);
  void posted.finally(() => unanswered.delete(posted));
};

function serve(connection: SqliteConnection, message: ToStoreThread): void {
  switch (message.kind) {
    case 'call': {
      const { id, method, args } = message;
      const run = connection[method] as (...args: unknown[]) => Promise<unknown>;
      // Run now, in the order calls arrived (a close after them finds their writes made).
      let done: Promise<unknown>;
      try {
        done = run.apply(connection, args);
      } catch (error) {
        done = Promise.reject(error);
      }
      answerLater(
        done.then(
          (value): FromStoreThread => ({ kind: 'answer', id, value }),
          (error): FromStoreThread => ({ kind: 'answer', id, error: asError(error) }),
        ),
      );
      return;
    }
    case 'moves': {
      const { id, writes } = message;
      // Every move of the message joins the connection's pending group in this turn.
      answerLater(
        Promise.allSettled(writes.map((write) => connection.commitWrite(write))).then(
          (settled): FromStoreThread => ({
            kind: 'moves',
            id,
            outcomes: settled.map(
              (s): MoveOutcome =>
                s.status === 'fulfilled' ? s.value : { error: asError(s.reason) },
            ),
          }),
        ),
      );
      return;
    }
    case 'close':
      port?.removeAllListeners('message');
      void connection
        .close()
        .then(() => Promise.all(unanswered))
        .then(() => {
          outbox.push({ kind: 'closed' });
          flush();
          port?.close();
        });
      return;
  }
}

let connection: SqliteConnection | undefined;
try {
  connection = openSqliteConnection(dataDir);
  reportOpening(opening);
} catch (error) {
  // Nothing listens then: the thread ends by itself.
  reportOpening(opening, error);
}
if (connection) {
  const opened = connection;
  port?.on('message', (messages: ToStoreThread[]) => {
    for (const message of messages) serve(opened, message);
  });
}
