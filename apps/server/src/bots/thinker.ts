import { Worker } from 'node:worker_threads';
import type { BotLevel } from '@iron-curtain/bots';
import type { Move, RulesContext, Seat, State } from '@iron-curtain/game';

export interface ThinkJob {
  id: number;
  /** The match's deck and variants, as its sync sent them. */
  rules: RulesContext;
  /** The bot seat's view: the same frame a human client of that seat receives. */
  view: State;
  seat: Seat;
  level: BotLevel;
  seed: string;
}

export type ThinkResult = { id: number; move: Move } | { id: number; error: string };

interface Pending {
  job: ThinkJob;
  resolve: (move: Move) => void;
  reject: (error: Error) => void;
}

/**
 * The worker's code: bundled beside the server as bot-worker.js; from source (tests, the
 * dev server) the TypeScript file itself, loaded through tsx.
 */
function spawn(): Worker {
  if (!import.meta.url.endsWith('.ts'))
    return new Worker(new URL('./bot-worker.js', import.meta.url));
  const entry = new URL('./think-worker.ts', import.meta.url).href;
  return new Worker(
    `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}

/** A small pool of worker threads where computer players think. */
export class BotThinker {
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Pending>();
  private readonly waiting: Pending[] = [];
  private readonly gone = new WeakSet<Worker>();
  private nextID = 0;
  private closed = false;

  constructor(threads: number) {
    for (let i = 0; i < threads; i++) this.idle.push(this.start());
  }

  private start(): Worker {
    const worker = spawn();
    worker.unref();
    worker.on('message', (result: ThinkResult) => {
      const pending = this.busy.get(worker);
      this.busy.delete(worker);
      if (pending) {
        if ('move' in result) pending.resolve(result.move);
        else pending.reject(new Error(result.error));
      }
      this.release(worker);
    });
    // A worker that dies fails its job and is replaced, so one bad decision stops nothing else.
    worker.on('error', (error) => this.replace(worker, error));
    worker.on('exit', (code) => this.replace(worker, new Error(`bot worker exited with ${code}`)));
    return worker;
  }

  private replace(worker: Worker, error: Error): void {
    // 'error' is followed by 'exit': replace a worker once.
    if (this.gone.has(worker)) return;
    this.gone.add(worker);
    this.busy.get(worker)?.reject(error);
    this.busy.delete(worker);
    const i = this.idle.indexOf(worker);
    if (i >= 0) this.idle.splice(i, 1);
    if (!this.closed) this.release(this.start());
  }

  private release(worker: Worker): void {
    const next = this.waiting.shift();
    if (next) {
      this.busy.set(worker, next);
      worker.postMessage(next.job);
    } else this.idle.push(worker);
  }

  choose(
    rules: RulesContext,
    view: State,
    seat: Seat,
    level: BotLevel,
    seed: string,
  ): Promise<Move> {
    if (this.closed) return Promise.reject(new Error('the bot thinker is closed'));
    return new Promise((resolve, reject) => {
      const pending = {
        job: { id: this.nextID++, rules, view, seat, level, seed },
        resolve,
        reject,
      };
      const worker = this.idle.pop();
      if (worker) {
        this.busy.set(worker, pending);
        worker.postMessage(pending.job);
      } else this.waiting.push(pending);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.waiting.splice(0)) p.reject(new Error('the server is stopping'));
    const workers = [...this.idle, ...this.busy.keys()];
    for (const pending of this.busy.values()) pending.reject(new Error('the server is stopping'));
    this.idle.length = 0;
    this.busy.clear();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
