import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { Periodic } from '../ops/periodic.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchStore, RemovedMatch } from '../storage/index.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How often the cleanup runs (the first run right at start). */
export const CLEANUP_EVERY_MS = 60 * 60 * 1000;
/** At most this many matches go in one run, so a run never holds the store long. */
const CLEANUP_BATCH = 200;
/** A full run leaves more behind: the next one follows after this pause, not an hour later. */
const BACKLOG_PAUSE_MS = 5_000;

export interface MatchCleanupDeps {
  matches: Pick<MatchStore, 'removeMatches'>;
  metrics: Metrics;
  logger: Logger;
  time: TimeSource;
  config: Pick<Config, 'UNFINISHED_MATCH_DAYS' | 'FINISHED_MATCH_DAYS'>;
}

/**
 * Removes old matches with everything stored with them, periodically and in bounded runs:
 * unfinished matches nobody touched for UNFINISHED_MATCH_DAYS, and finished ones after
 * FINISHED_MATCH_DAYS when the operator set it (unset, they stay for replays). A match in play
 * whose turn has a deadline stays, however long its turn (correspondence): the deadline sweep
 * ends it on time, and it is then a finished match. With several
 * instances on one store, the store lets one run at a time; the others skip their turn.
 */
export class MatchCleanup {
  private readonly periodic: Periodic;

  constructor(private readonly deps: MatchCleanupDeps) {
    this.periodic = new Periodic(
      deps.time,
      async () => (await this.run())?.length === CLEANUP_BATCH,
      CLEANUP_EVERY_MS,
      BACKLOG_PAUSE_MS,
    );
  }

  /** Runs now, then every CLEANUP_EVERY_MS until stopped. */
  start(): void {
    this.periodic.start();
  }

  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One run: the matches removed, or null when another instance was running one. */
  async run(): Promise<RemovedMatch[] | null> {
    const { matches, metrics, logger, time, config } = this.deps;
    const now = time.now();
    const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
    try {
      const removed = await matches.removeMatches({
        unfinishedBefore: before(config.UNFINISHED_MATCH_DAYS),
        finishedBefore:
          config.FINISHED_MATCH_DAYS === undefined ? null : before(config.FINISHED_MATCH_DAYS),
        limit: CLEANUP_BATCH,
      });
      metrics.cleanupRuns.inc({ outcome: removed ? 'done' : 'skipped' });
      for (const match of removed ?? []) metrics.matchesRemoved.inc({ status: match.status });
      if (removed && removed.length > 0) {
        const count = (status: string) => removed.filter((m) => m.status === status).length;
        logger.info(
          {
            removed: removed.length,
            waiting: count('waiting'),
            playing: count('playing'),
            finished: count('finished'),
          },
          'old matches removed',
        );
      }
      return removed;
    } catch (error) {
      metrics.cleanupRuns.inc({ outcome: 'failed' });
      logger.error({ err: error }, 'old-match cleanup failed');
      return [];
    }
  }
}
