import type { LoadResult } from '../client/protocol.ts';
import { ClientPool, type LoadOptions } from './pool.ts';
import { type LatencySummary, summarize } from './stats.ts';
import { startTarget, type Target, type TargetKind } from './targets.ts';

export interface LoadRun {
  kind: TargetKind;
  result: LoadResult;
  latency: LatencySummary;
  movesPerSecond: number;
  /** Share of one core the server used during the window. */
  serverCpu: number;
  /** Server CPU time per completed move in the window, ms: hardly changes with the machine's load. */
  cpuPerMove: number;
  /**
   * The client processes' CPU time per completed move in the window, ms: on a 2-core machine
   * they share the cores with the server, so what they spend a move bounds the moves/s too.
   */
  clientCpuPerMove: number;
  opened: number;
  openMs: number;
  openErrors: string[];
}

/**
 * Starts a target, opens the matches from client workers, plays for `warmupMs` and then
 * measures for `windowMs`; the server is stopped and its data removed afterwards.
 */
export async function measureLoad(
  kind: TargetKind,
  options: LoadRunOptions & { cpuProf: boolean },
): Promise<LoadRun> {
  const target = await startTarget(kind, { cpuProf: options.cpuProf });
  try {
    return await measureLoadOn(target, options);
  } finally {
    await target.dispose();
  }
}

export type LoadRunOptions = Omit<LoadOptions, 'mode'> & {
  mode: 'closed' | 'paced';
  warmupMs: number;
  windowMs: number;
  /** Told when the measured window begins and ends (to sample other processes). */
  onWindow?: (edge: 'start' | 'end') => void;
};

/** The same on a target already running, which is left running. */
export async function measureLoadOn(target: Target, options: LoadRunOptions): Promise<LoadRun> {
  const pool = await ClientPool.open(target, options);
  try {
    const start = Date.now() + options.warmupMs;
    const end = start + options.windowMs;
    let cpuStart = Number.NaN;
    let cpuEnd = Number.NaN;
    let clientsStart = Number.NaN;
    let clientsEnd = Number.NaN;
    setTimeout(() => {
      cpuStart = target.cpuSeconds();
      clientsStart = pool.cpuSeconds();
      options.onWindow?.('start');
    }, options.warmupMs);
    setTimeout(() => {
      cpuEnd = target.cpuSeconds();
      clientsEnd = pool.cpuSeconds();
      options.onWindow?.('end');
    }, options.warmupMs + options.windowMs);
    const result = await pool.play(start, end);
    // The workers can report before the window's timer has fired.
    if (Number.isNaN(cpuEnd)) cpuEnd = target.cpuSeconds();
    if (Number.isNaN(clientsEnd)) clientsEnd = pool.cpuSeconds();
    return {
      kind: target.kind,
      result,
      latency: summarize(result.latencies),
      movesPerSecond: result.moves / (options.windowMs / 1000),
      serverCpu: (cpuEnd - cpuStart) / (options.windowMs / 1000),
      cpuPerMove: ((cpuEnd - cpuStart) * 1000) / result.moves,
      clientCpuPerMove: ((clientsEnd - clientsStart) * 1000) / result.moves,
      opened: pool.opened,
      openMs: pool.openMs,
      openErrors: pool.errors,
    };
  } finally {
    await pool.close();
  }
}

/** What went wrong in a run, for the notes under a table. */
export function problems(run: LoadRun): string[] {
  const notes: string[] = [];
  const refused = Object.entries(run.result.refused);
  if (refused.length > 0) notes.push(`refused: ${refused.map(([c, n]) => `${c} ${n}`).join(', ')}`);
  if (run.result.errors.length > 0) notes.push(`errors: ${run.result.errors.join(' | ')}`);
  if (run.openErrors.length > 0)
    notes.push(`open errors: ${run.openErrors.slice(0, 3).join(' | ')}`);
  return notes;
}
