import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { DriverContext } from '../client/drivers.ts';
import type { FromWorker, LoadResult, StormResult, Task, ToWorker } from '../client/protocol.ts';
import { BENCH_DIR, cpuSecondsOf, type Target } from './targets.ts';

const WORKER = path.join(BENCH_DIR, 'client/worker.ts');

export interface LoadOptions {
  mode: Task['mode'];
  workers: number;
  matches: number;
  frame: unknown;
  periodMs?: number;
  warmMoves?: number;
  openConcurrency?: number;
  stepTimeoutMs?: number;
  /** See DriverContext; true unless a benchmark asks to behave like socket.io-client alone. */
  reconnectOnServerDisconnect?: boolean;
  /** See DriverContext. */
  spreadAddresses?: boolean;
}

/** Client worker processes holding one target's matches. */
export class ClientPool {
  private constructor(
    private readonly children: ChildProcess[],
    readonly opened: number,
    readonly openMs: number,
    readonly errors: string[],
  ) {}

  /** Forks the workers, splits the matches between them, and resolves once all are open. */
  static async open(target: Target, options: LoadOptions): Promise<ClientPool> {
    const ctx: DriverContext = {
      kind: target.kind,
      base: `http://127.0.0.1:${target.port}`,
      frame: options.frame,
      stepTimeoutMs: options.stepTimeoutMs ?? 10_000,
      reconnectOnServerDisconnect: options.reconnectOnServerDisconnect ?? true,
      spreadAddresses: options.spreadAddresses ?? false,
    };
    const workers = Math.max(1, Math.min(options.workers, options.matches));
    const children: ChildProcess[] = [];
    const ready: Promise<Extract<FromWorker, { type: 'ready' }>>[] = [];
    for (let w = 0; w < workers; w++) {
      const share = Math.floor(options.matches / workers) + (w < options.matches % workers ? 1 : 0);
      const child = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
      children.push(child);
      ready.push(expect(child, 'ready'));
      const task: Task = {
        mode: options.mode,
        ctx,
        matches: share,
        openConcurrency: options.openConcurrency ?? 20,
        periodMs: options.periodMs ?? 2000,
        warmMoves: options.warmMoves ?? 0,
      };
      child.send({ type: 'task', task } satisfies ToWorker);
    }
    const answers = await Promise.all(ready);
    return new ClientPool(
      children,
      answers.reduce((n, a) => n + a.opened, 0),
      Math.max(...answers.map((a) => a.openMs)),
      answers.flatMap((a) => a.errors),
    );
  }

  /** CPU seconds the client processes have used so far, together. */
  cpuSeconds(): number {
    return this.children.reduce((sum, child) => sum + cpuSecondsOf(child.pid), 0);
  }

  /** Plays until `end` (epoch ms) and merges what every worker measured after `start`. */
  async play(start: number, end: number): Promise<LoadResult> {
    const results = this.children.map((c) => expect(c, 'load'));
    for (const c of this.children) c.send({ type: 'go', start, end } satisfies ToWorker);
    const parts = (await Promise.all(results)).map((r) => r.result);
    const refused: Record<string, number> = {};
    for (const p of parts) {
      for (const [code, n] of Object.entries(p.refused)) refused[code] = (refused[code] ?? 0) + n;
    }
    return {
      latencies: parts.flatMap((p) => p.latencies),
      moves: parts.reduce((n, p) => n + p.moves, 0),
      refused,
      errors: [...new Set(parts.flatMap((p) => p.errors))].slice(0, 10),
      replaced: parts.reduce((n, p) => n + p.replaced, 0),
      skipped: parts.reduce((n, p) => n + p.skipped, 0),
    };
  }

  /** Calls `listener` with the total of synced sockets, about every 100 ms (storm mode). */
  onProgress(listener: (synced: number) => void): void {
    const latest = new Map<ChildProcess, number>();
    for (const c of this.children) {
      c.on('message', (m: FromWorker) => {
        if (m.type !== 'progress') return;
        latest.set(c, m.synced);
        listener([...latest.values()].reduce((a, b) => a + b, 0));
      });
    }
  }

  mark(): void {
    for (const c of this.children) c.send({ type: 'mark' } satisfies ToWorker);
  }

  async report(): Promise<StormResult> {
    const results = this.children.map((c) => expect(c, 'storm'));
    for (const c of this.children) c.send({ type: 'report' } satisfies ToWorker);
    const parts = (await Promise.all(results)).map((r) => r.result);
    return {
      sockets: parts.reduce((n, p) => n + p.sockets, 0),
      synced: parts.reduce((n, p) => n + p.synced, 0),
      resyncTimes: parts.flatMap((p) => p.resyncTimes),
      matchesKept: parts.reduce((n, p) => n + p.matchesKept, 0),
      serverDisconnects: parts.reduce((n, p) => n + p.serverDisconnects, 0),
    };
  }

  /** Ends every worker and waits for them to exit. */
  async close(): Promise<void> {
    await Promise.all(
      this.children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            const timer = setTimeout(() => c.kill('SIGKILL'), 10_000);
            c.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            c.send({ type: 'stop' } satisfies ToWorker);
          }),
      ),
    );
  }
}

/** The next message of `type` from a worker; a worker that fails or exits first rejects. */
function expect<T extends FromWorker['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<FromWorker, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: FromWorker) => {
      if (m.type === type) {
        cleanup();
        resolve(m as Extract<FromWorker, { type: T }>);
      } else if (m.type === 'fatal') {
        cleanup();
        reject(new Error(`client worker failed: ${m.message}`));
      }
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`client worker exited (${code}) before '${type}'`));
    };
    const cleanup = () => {
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}
