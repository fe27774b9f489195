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

/** Work whose answer is not posted yet: closing posts every answer first. */
const unanswered = new Set<Promise<void>>();
const answerLater = (work: Promise<FromStoreThread>) => {
  const posted = work.then((answer) => port?.postMessage(answer));
  unanswered.add(posted);
  void posted.finally(() => unanswered.delete(posted));
};

function serve(connection: SqliteConnection, message: ToStoreThread): void {
  switch (message.kind) {
    case 'call': {
      const { id, method, args } = message;
      const run = connection[method] as (...args: unknown[]) => Promise<unknown>;
      answerLater(
        Promise.resolve()
          .then(() => run(...args))
          .then(
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
          port?.postMessage({ kind: 'closed' } satisfies FromStoreThread);
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
  port?.on('message', (message: ToStoreThread) => serve(opened, message));
}
