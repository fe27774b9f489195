import type { Seat } from '@iron-curtain/game';

interface Attendance {
  seats: Record<Seat, number>;
  spectators: number;
}

/** Who is connected to which match on this instance: sockets per seat and spectators. */
export class PresenceBook {
  private readonly matches = new Map<string, Attendance>();

  join(matchID: string, seat: Seat | null): void {
    const a = this.matches.get(matchID) ?? { seats: { '0': 0, '1': 0 }, spectators: 0 };
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

  connected(matchID: string, seat: Seat): boolean {
    return (this.matches.get(matchID)?.seats[seat] ?? 0) > 0;
  }

  spectators(matchID: string): number {
    return this.matches.get(matchID)?.spectators ?? 0;
  }

  /** Matches with at least one socket attached. */
  get size(): number {
    return this.matches.size;
  }
}
