import type { Seat } from '@iron-curtain/game';
import { type Attendance, type Fanout, localFanout, noAttendance } from './fanout.ts';

/**
 * Who is connected to which match: this instance's sockets per seat and spectators, kept
 * here, plus those other instances report through the fan-out.
 */
export class PresenceBook {
  private readonly matches = new Map<string, Attendance>();

  constructor(private readonly fanout: Fanout = localFanout()) {}

  join(matchID: string, seat: Seat | null): void {
    const a = this.matches.get(matchID) ?? noAttendance();
    if (seat === null) a.spectators += 1;
    else a.seats[seat] += 1;
    this.matches.set(matchID, a);
  }

  leave(matchID: string, seat: Seat | null): void {
    const a = this.matches.get(matchID);
    if (!a) return;
    if (seat === null) a.spectators = Math.max(0, a.spectators - 1);
    else a.seats[seat] = Math.max(0, a.seats[seat] - 1);
    if (a.spectators === 0 && a.seats['0'] === 0 && a.seats['1'] === 0) {
      this.matches.delete(matchID);
    }
  }

  /** This instance's sockets of a match. */
  here(matchID: string): Attendance {
    const a = this.matches.get(matchID);
    return a ? { seats: { ...a.seats }, spectators: a.spectators } : noAttendance();
  }

  /** Sockets of a match on every instance. */
  async everywhere(matchID: string): Promise<Attendance> {
    const here = this.here(matchID);
    if (this.fanout.kind === 'local') return here;
    const there = await this.fanout.elsewhere(matchID);
    return {
      seats: { '0': here.seats['0'] + there.seats['0'], '1': here.seats['1'] + there.seats['1'] },
      spectators: here.spectators + there.spectators,
    };
  }

  /** Matches with at least one socket attached to this instance. */
  get size(): number {
    return this.matches.size;
  }
}
