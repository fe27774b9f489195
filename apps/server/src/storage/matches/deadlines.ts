import type { ClockRecord } from './match-store.ts';

/** How long before a correspondence turn's deadline the seat to move is warned. */
export const DEADLINE_WARNING_MS = 24 * 60 * 60 * 1000;

/** When the running seat's time runs out (ms since the epoch); null when no time runs. */
export function deadlineOf(clock: ClockRecord | null | undefined): number | null {
  if (!clock || clock.running === null || clock.since === null) return null;
  return Date.parse(clock.since) + clock.remainingMs[clock.running];
}

/**
 * The deadline and the warning as a match's row keeps them (ISO, null for none), so that the
 * deadline sweep reads only the matches due. Only a turn longer than the warning's lead is
 * warned: a shorter one is told of its deadline when it begins.
 */
export function deadlineColumns(clock: ClockRecord | null | undefined): {
  deadline: string | null;
  warnAt: string | null;
} {
  const deadline = deadlineOf(clock);
  if (deadline === null || !clock) return { deadline: null, warnAt: null };
  const warned = clock.perPlayerMs > DEADLINE_WARNING_MS;
  return {
    deadline: new Date(deadline).toISOString(),
    warnAt: warned ? new Date(deadline - DEADLINE_WARNING_MS).toISOString() : null,
  };
}
