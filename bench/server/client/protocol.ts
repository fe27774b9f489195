import type { DriverContext } from './drivers.ts';

/** What a client worker is asked to do. */
export interface Task {
  mode: 'closed' | 'paced' | 'idle' | 'storm';
  ctx: DriverContext;
  /** Matches this worker opens and plays. */
  matches: number;
  /** Matches being opened at once. */
  openConcurrency: number;
  /** paced: each match moves once per period. */
  periodMs: number;
  /** Moves each match makes right after opening, before the worker reports ready. */
  warmMoves: number;
}

export type ToWorker =
  | { type: 'task'; task: Task }
  /** closed/paced: play until `end` (epoch ms); count what completes after `start`. */
  | { type: 'go'; start: number; end: number }
  /** storm: the server is about to be restarted. */
  | { type: 'mark' }
  | { type: 'report' }
  | { type: 'stop' };

export interface LoadResult {
  latencies: number[];
  moves: number;
  refused: Record<string, number>;
  errors: string[];
  replaced: number;
  skipped: number;
}

export interface StormResult {
  sockets: number;
  synced: number;
  resyncTimes: number[];
  /** Matches with both seats synced again on the state id they had before the restart. */
  matchesKept: number;
  serverDisconnects: number;
}

export type FromWorker =
  | { type: 'ready'; opened: number; openMs: number; errors: string[] }
  | { type: 'progress'; synced: number }
  | { type: 'load'; result: LoadResult }
  | { type: 'storm'; result: StormResult }
  | { type: 'fatal'; message: string };
