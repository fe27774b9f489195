import type { Seat } from '@iron-curtain/game';
import type { Logger } from '../ops/logger.ts';
import { Periodic } from '../ops/periodic.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchStore } from '../storage/index.ts';

/** How often the sweep looks for deadlines due (a correspondence turn ends at most this late). */
export const SWEEP_EVERY_MS = 60_000;
/** At most this many due matches (and as many warnings) in one run. */
export const SWEEP_BATCH = 500;
/** A full run leaves more behind: the next follows after this pause, not a minute later. */
const BACKLOG_PAUSE_MS = 1_000;

export interface DeadlineSweepDeps {
  matches: Pick<MatchStore, 'inSweepTurn' | 'listDueMatches' | 'takeDueWarnings'>;
  logger: Logger;
  time: TimeSource;
  /** Tells a match's room its running seat's time may be up: it reads the clock afresh and ends the match on time. */
  clockCheck: (matchID: string) => Promise<void>;
  /** Tells a match's room to warn the seat to move that its turn runs out at `deadline` (ISO). */
  warn: (matchID: string, seat: Seat, deadline: string) => void;
}

/** What one run did. */
export interface SweepRun {
  /** Matches whose deadline was due (their rooms checked the clock). */
  due: number;
  /** Seats warned of a deadline 24 hours ahead. */
  warned: number;
}

/**
 * Acts on the turn deadlines stored with the matches: every SWEEP_EVERY_MS it reads from the
 * store only the matches whose deadline has passed, and has each one's room end it on time,
 * then has the rooms warn the seats whose correspondence deadline is a day ahead (both enter
 * the room through its queue, as every other event of the match). Nothing is held in memory
 * per match between runs, and the deadlines are in the store, so a restart (or a killed
 * process) loses none. With several instances on one store, one sweeps at a time.
 */
export class DeadlineSweep {
  private readonly periodic: Periodic;

  constructor(private readonly deps: DeadlineSweepDeps) {
    this.periodic = new Periodic(
      deps.time,
      async () => {
        const done = await this.run();
        return !!done && (done.due === SWEEP_BATCH || done.warned === SWEEP_BATCH);
      },
      SWEEP_EVERY_MS,
      BACKLOG_PAUSE_MS,
    );
  }

  /** Runs now, then every SWEEP_EVERY_MS until stopped. */
  start(): void {
    this.periodic.start();
  }

  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void> {
    return this.periodic.stop();
  }

  /** One run; null when another instance holds the sweep's turn. */
  async run(): Promise<SweepRun | null> {
    const { matches, logger, time, clockCheck, warn } = this.deps;
    const now = new Date(time.now()).toISOString();
    try {
      return await matches.inSweepTurn(async () => {
        const due = await matches.listDueMatches(now, SWEEP_BATCH);
        await Promise.all(
          due.map((matchID) =>
            clockCheck(matchID).catch((error) =>
              logger.error({ err: error, matchID }, 'deadline check failed'),
            ),
          ),
        );
        const warnings = await matches.takeDueWarnings(now, SWEEP_BATCH);
        for (const { matchID, seat, deadline } of warnings) warn(matchID, seat, deadline);
        return { due: due.length, warned: warnings.length };
      });
    } catch (error) {
      logger.error({ err: error }, 'deadline sweep failed');
      return { due: 0, warned: 0 };
    }
  }
}
