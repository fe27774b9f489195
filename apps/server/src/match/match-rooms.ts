import type { Seat } from '@iron-curtain/game';
import type { GameSocket } from '../edge/game-sockets.ts';
import type { Logger } from '../ops/logger.ts';
import type { AccountSeatStore, MatchRecord, MatchStore } from '../storage/index.ts';
import type { Fanout } from './fanout.ts';
import { MatchRoom, type RoomParts } from './match-room.ts';
import type { RoomEvent } from './room.ts';

export interface MatchRoomsDeps {
  matches: Pick<MatchStore, 'getMatch' | 'loadState' | 'readMoves'>;
  /** Who holds the seats' accounts; without it no seat is named an account's. */
  accountSeats?: Pick<AccountSeatStore, 'holdersOf'> | undefined;
  logger: Logger;
  fanout: Fanout;
  parts: Omit<
    RoomParts,
    'read' | 'readAccounts' | 'loadState' | 'readMoves' | 'idle' | 'detach' | 'logger'
  >;
  /** True once the service is stopping: a socket that leaves then is not counted as gone. */
  closing: () => boolean;
}

/**
 * The rooms of the live matches on this instance, made on demand and dropped once nothing is
 * queued, no socket here watches and no timer runs (see MatchRoom.idle).
 */
export class MatchRooms {
  private readonly rooms = new Map<string, MatchRoom>();
  private readonly parts: RoomParts;

  constructor(private readonly deps: MatchRoomsDeps) {
    this.parts = {
      ...deps.parts,
      logger: deps.logger,
      read: (matchID) => deps.matches.getMatch(matchID),
      readAccounts: async (matchID) => {
        const holders = (await deps.accountSeats?.holdersOf([matchID])) ?? [];
        const at = (seat: Seat) => holders.find((h) => h.seat === seat)?.username ?? null;
        return { '0': at('0'), '1': at('1') };
      },
      loadState: (matchID) => deps.matches.loadState(matchID),
      readMoves: (matchID) => deps.matches.readMoves(matchID),
      idle: (room) => this.drop(room),
      detach: (socket) => this.detach(socket),
    };
    deps.fanout.onMessage((message) => {
      // No room here: no socket here watches the match, so nobody here is told anything.
      this.rooms
        .get(message.matchID)
        ?.tell({ kind: 'heard', message })
        .catch((error) =>
          deps.logger.error({ err: error, matchID: message.matchID }, 'fan-out delivery failed'),
        );
    });
  }

  /** The match's room, made if there is none. */
  of(matchID: string): MatchRoom {
    let room = this.rooms.get(matchID);
    if (!room) {
      room = new MatchRoom(matchID, this.parts);
      this.rooms.set(matchID, room);
    }
    return room;
  }

  /** Tells a match's room; failures of work nobody waits for are logged. */
  tell(matchID: string, event: RoomEvent, failure: string): void {
    this.of(matchID)
      .tell(event)
      .catch((error) => this.deps.logger.error({ err: error, matchID }, failure));
  }

  /** Live rooms on this instance. */
  get size(): number {
    return this.rooms.size;
  }

  /** The socket leaves the room it is attached to; unless the server is stopping, the room is told. */
  detach(socket: GameSocket): void {
    const seating = socket.data.seating;
    if (!seating) return;
    const room = this.of(seating.matchID);
    this.deps.parts.sessions.detach(room, socket);
    // At shutdown every socket leaves at once: nobody left, the server did. Absence then
    // counts from the next start, and the clients reconnect to the next process.
    if (this.deps.closing()) {
      if (room.idle) this.drop(room);
      return;
    }
    this.tell(seating.matchID, { kind: 'left', seat: seating.seat }, 'presence push failed');
  }

  /** Since when a disconnected seat counts as away (the referee asks). */
  awaySince(match: MatchRecord, seat: Seat): number {
    return this.deps.parts.sessions.awaySince(match, seat);
  }

  /** Each match in play with a running clock has its room arm its timer (on start). */
  async resumeClocks(): Promise<void> {
    const running = await this.deps.parts.clock.running();
    await Promise.all(
      running.map((match) => this.of(match.matchID).tell({ kind: 'resume', match })),
    );
  }

  /** Clears every timer and arms no more (the server is stopping). */
  stopClocks(): void {
    this.deps.parts.clock.stop();
    for (const room of [...this.rooms.values()]) {
      room.stopTimers();
      if (room.idle) this.drop(room);
    }
  }

  /** Resolves when every room has handled everything queued so far. */
  async drain(): Promise<void> {
    while ([...this.rooms.values()].some((room) => room.busy)) {
      await Promise.all([...this.rooms.values()].map((room) => room.drained()));
    }
  }

  private drop(room: MatchRoom): void {
    if (this.rooms.get(room.matchID) === room) this.rooms.delete(room.matchID);
  }
}
