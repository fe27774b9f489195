import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Seat } from '@iron-curtain/game';
import {
  type Presence,
  type RefusedMessage,
  ServerEvents,
  type SyncMessage,
  type SyncRequest,
  syncRequestSchema,
  type UpdateMessage,
} from '@iron-curtain/protocol';
import type { AckFn, GameNamespace, GameSocket, Seating } from '../edge/game-sockets.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, MatchStore } from '../storage/index.ts';
import type { MatchChat } from './chat.ts';
import { clockState } from './clock-record.ts';
import { frameFor } from './engine.ts';
import type { Fanout } from './fanout.ts';
import type { PresenceBook } from './presence-book.ts';
import type {
  Notice,
  Outcome,
  Room,
  RoomView,
  StoredUpdate,
  SyncEvent,
  UpdateHeader,
  Viewer,
} from './room.ts';

/** The crowd's count is told at most this often per match (ms), however many come and go. */
export const CROWD_EVERY_MS = 1000;
/**
 * Sockets sent a frame before the server turns to other work: a big crowd's fan-out yields
 * to the event loop between slices, so other matches' moves wait one slice at most. (Slices of
 * 250 held the others' moves about twice as long while 5,000 watched: bench/results.md.)
 */
export const CROWD_SLICE = 50;

export interface SeatSessionsDeps {
  nsp: GameNamespace;
  matches: Pick<MatchStore, 'setAway'>;
  presence: PresenceBook;
  metrics: Metrics;
  logger: Logger;
  fanout: Fanout;
  time: TimeSource;
  chat: MatchChat;
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs: number;
  /** Absences before this instance started are counted from here at the earliest. */
  startedAt: number;
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
  /** Told whenever a socket attaches to a match (computer players resume then). */
  onAttach?: ((match: MatchRecord) => void) | undefined;
}

/**
 * The seat sessions of a match's room, its publisher: a socket syncs as a seat (with credentials) or as a
 * spectator, becomes one of the room's viewers and is counted in presence, is sent the whole
 * picture on a sync and each stored state after (only on top of the state it holds), and
 * leaves when it goes. A seat's presence (connected, how long away) is told to every socket
 * of the match at once, here and, through the fan-out, elsewhere; the crowd (how many watch)
 * is a count told at most once per CROWD_EVERY_MS per match, so that a spectator's join or
 * leave costs O(1) instead of a frame to everyone already watching.
 */
export class SeatSessions {
  constructor(private readonly deps: SeatSessionsDeps) {}

  /** The sync request of a message, or undefined when refused (the caller re-syncs). */
  syncRequest(socket: GameSocket, payload: unknown, ack?: AckFn): SyncRequest | undefined {
    const parsed = syncRequestSchema.safeParse(payload);
    if (parsed.success) return parsed.data;
    this.deps.refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
    return undefined;
  }

  /**
   * The match as a socket may attach to it (read afresh: a seat's credentials may have
   * changed hands), or the refusal to tell.
   */
  async admit(
    room: RoomView,
    socket: GameSocket,
    request: SyncRequest,
    ack?: AckFn,
  ): Promise<{ match: MatchRecord } | { refused: Outcome }> {
    const refused = (error: RefusedMessage) => ({
      refused: { tell: [{ kind: 'refused', socket, error, ack } satisfies Notice] },
    });
    const { playerID, credentials } = request;
    const match = await room.reread();
    if (!match) return refused({ code: 'UNKNOWN_MATCH', message: 'no such match' });
    if (playerID !== null) {
      const seat = match.players.find((p) => p.seat === playerID);
      if (credentials === undefined || !seat || !secretMatches(credentials, seat.credentialsHash)) {
        return refused({
          code: 'UNAUTHORIZED',
          message: `these credentials do not hold seat ${playerID}`,
        });
      }
    }
    return { match };
  }

  /** An admitted socket (detached from any other match) joins the room and is sent everything. */
  async sync(
    room: Room,
    socket: GameSocket,
    match: MatchRecord,
    seat: Seat | null,
    ack?: AckFn,
  ): Promise<void> {
    const attached = await this.attach(room, socket, { matchID: room.matchID, seat }, match);
    const stateID = await this.sendSync(room, socket);
    await this.deps.chat.sendHistory(room, [socket], attached);
    if (stateID !== undefined) await this.catchUp(room, stateID);
    ack?.({ ok: true });
    if (seat === null) {
      // Its sync told it a count the others may not have been told: the tick tells everyone.
      room.audience.crowd.told = undefined;
      room.crowdChanged();
    } else await this.announce(room, attached);
  }

  /**
   * Spectators' syncs that arrived together: as each alone (see `admit` and `sync`), except
   * that the match is read, the sync frame built and encoded, and the chat read and encoded
   * once for them all, so a crowd's join costs the server per spectator little more than its
   * socket's writes.
   */
  async watch(
    room: Room,
    syncs: SyncEvent[],
    detach: (socket: GameSocket) => void,
  ): Promise<Outcome> {
    const match = await room.reread();
    if (!match) {
      const error: RefusedMessage = { code: 'UNKNOWN_MATCH', message: 'no such match' };
      return { tell: syncs.map(({ socket, ack }) => ({ kind: 'refused', socket, error, ack })) };
    }
    const joined: SyncEvent[] = [];
    for (const sync of syncs) {
      // A socket gone while its sync waited would be a viewer nobody removes.
      if (!sync.socket.connected) continue;
      detach(sync.socket);
      await this.attach(room, sync.socket, { matchID: room.matchID, seat: null }, match);
      joined.push(sync);
    }
    if (joined.length === 0) return {};
    const sockets = joined.map((sync) => sync.socket);
    const stateID = await this.sendSyncs(room, sockets);
    await this.deps.chat.sendHistory(room, sockets, match);
    if (stateID !== undefined) await this.catchUp(room, stateID);
    for (const { ack } of joined) ack?.({ ok: true });
    // Their syncs told them a count the others may not have been told: the tick tells everyone.
    room.audience.crowd.told = undefined;
    room.crowdChanged();
    return {};
  }

  /** Resolves once this instance hears the match's updates from other instances too. */
  private async attach(
    room: Room,
    socket: GameSocket,
    seating: Seating,
    match: MatchRecord,
  ): Promise<MatchRecord> {
    const { presence, metrics, fanout, matches } = this.deps;
    socket.data.seating = seating;
    socket.data.stateID = undefined;
    room.audience.viewers.add(socket);
    presence.join(seating.matchID, seating.seat);
    metrics.matchesActive.set(presence.size);
    await fanout.watch(seating.matchID);
    // A seat that is back is no longer away; one that was not away costs no write (a write
    // per sync was an fsync, and it made the SQLite store forget the match's record).
    const away = match.players.find((p) => p.seat === seating.seat)?.awaySince;
    let attached = match;
    if (seating.seat !== null && away) {
      await matches.setAway(seating.matchID, seating.seat, null);
      // The room reads the record as stored again (it is its own): a seat's return after an
      // absence is rare, the read is cheap.
      attached = (await room.reread()) ?? match;
    }
    this.deps.onAttach?.(attached);
    return attached;
  }

  /** The socket leaves the room (it went, or syncs with another match). */
  detach(room: Room, socket: GameSocket): Seating | undefined {
    const seating = socket.data.seating;
    if (!seating) return undefined;
    const { presence, metrics, fanout } = this.deps;
    socket.data.seating = undefined;
    socket.data.stateID = undefined;
    room.audience.viewers.delete(socket);
    presence.leave(seating.matchID, seating.seat);
    metrics.matchesActive.set(presence.size);
    fanout.unwatch(seating.matchID);
    return seating;
  }

  /** A seat's socket left: once its last socket anywhere has gone, it is away from now (abandonment counts from here). */
  async seatLeft(room: Room, seat: Seat): Promise<void> {
    const { presence, matches, time } = this.deps;
    const attendance = await presence.everywhere(room.matchID);
    if (attendance.seats[seat] > 0) return;
    await matches.setAway(room.matchID, seat, new Date(time.now()).toISOString());
  }

  /**
   * Sends a socket the whole picture of its match, as its seat sees it, from the state as
   * stored (another instance may have stored one it never announced); resolves to the state id
   * sent, if one was.
   */
  sendSync(room: Room, socket: GameSocket): Promise<number | undefined> {
    return this.sendSyncs(room, [socket], 'store');
  }

  /**
   * Sends sockets of one seat (or spectators) the whole picture of their match, as their seat
   * sees it, in one frame encoded once for them all; resolves to the state id sent, if one was.
   * A crowd's batches take the room's state (`from` 'room'), so a crowd arriving at once, as
   * after a restart, costs one read of the store, not one per batch.
   */
  private async sendSyncs(
    room: Room,
    sockets: GameSocket[],
    from: 'room' | 'store' = 'room',
  ): Promise<number | undefined> {
    // Each socket's seating as asked: one that syncs again meanwhile is sent the newer sync.
    const seatings = sockets.map((socket) => (socket.connected ? socket.data.seating : undefined));
    const seating = seatings.find((s) => s !== undefined);
    if (!seating) return undefined;
    const { time } = this.deps;
    const match = await room.match();
    const state = await room.stateFrom(from);
    if (!match || !state) return undefined;
    const log = await room.logAt(state._stateID);
    const clock = match.clock ? { clock: clockState(match.clock, time.now()) } : {};
    const message: SyncMessage = {
      matchID: seating.matchID,
      playerID: seating.seat,
      rules: room.playedWith(match).rules,
      state: { ...frameFor(state, seating.seat), ...clock },
      log,
      presence: await this.presenceOf(room, match),
    };
    const to = sockets.filter(
      (socket, i) => socket.connected && seatings[i] && socket.data.seating === seatings[i],
    );
    if (to.length === 0) return undefined;
    for (const socket of to) socket.data.stateID = state._stateID;
    this.deps.nsp.to(to.map((socket) => socket.id)).emit(ServerEvents.sync, message);
    return state._stateID;
  }

  /**
   * The store holds a state some of this instance's sockets of the match never got: the
   * instance that stored it died before announcing it (or its fan-out message was lost).
   * Nothing else would tell them until the next move, so they get the whole picture now.
   * Only a state newer than the room's sockets all hold is looked for (a join into a crowd
   * does not scan the crowd).
   */
  private async catchUp(room: Room, stateID: number): Promise<void> {
    if (room.audience.delivered !== undefined && stateID <= room.audience.delivered) return;
    room.audience.delivered = stateID;
    for (const socket of [...room.audience.viewers]) {
      const held = socket.data.stateID;
      if (held !== undefined && held < stateID) await this.sendSync(room, socket);
    }
  }

  /**
   * A state this instance stored: to its own sockets, then to every other instance's. Alone
   * (no Redis), a patch is made only for a viewer with a socket here: most matches have no
   * spectator, and a seat may be away.
   */
  async broadcast(
    room: Room,
    update: UpdateHeader,
    patchFor: (viewer: Viewer) => StoredUpdate['patches'][Viewer],
    seatsTold: () => void,
  ): Promise<void> {
    const { fanout } = this.deps;
    if (fanout.kind !== 'local') {
      const patches = {
        '0': patchFor('0'),
        '1': patchFor('1'),
        spectators: patchFor('spectators'),
      };
      fanout.publish({ ...update, patches });
    }
    await this.deliver(room, update, patchFor, seatsTold);
  }

  /**
   * Sends a stored state's update to the room's sockets here, each its own view's patch,
   * only to a socket holding the state the patch applies to: an older or repeated state is
   * dropped, and a socket that missed one (a fan-out message lost or overtaken) gets the
   * whole picture instead. `patchFor` is asked only for viewers with a socket here that holds
   * the state before. The seats are sent theirs first, then `seatsTold` is called (the
   * mover's acknowledgement), then the crowd in slices, while the room goes on with its next
   * event: one fan-out to the crowd in flight at most, the next update's and any presence
   * wait for it, so the crowd's sockets get their updates and counts in order. (A sync may
   * overtake an update in flight: clients drop an update older than the state they hold.)
   */
  async deliver(
    room: Room,
    update: UpdateHeader,
    patchFor: (viewer: Viewer) => StoredUpdate['patches'][Viewer],
    seatsTold?: () => void,
  ): Promise<void> {
    const { matchID, from, stateID, entries, clock } = update;
    const next: Record<Viewer, string[]> = { '0': [], '1': [], spectators: [] };
    const behind: Record<'seats' | 'spectators', GameSocket[]> = { seats: [], spectators: [] };
    for (const socket of room.audience.viewers) {
      const seating = socket.data.seating;
      if (seating?.matchID !== matchID || socket.data.stateID === undefined) continue;
      if (socket.data.stateID >= stateID) continue;
      if (socket.data.stateID === from) {
        next[seating.seat ?? 'spectators'].push(socket.id);
        socket.data.stateID = stateID;
      } else behind[seating.seat === null ? 'spectators' : 'seats'].push(socket);
    }
    room.audience.delivered = Math.max(room.audience.delivered ?? stateID, stateID);
    const message = (viewer: Viewer): UpdateMessage => ({
      matchID,
      from,
      stateID,
      patch: patchFor(viewer),
      entries,
      ...(clock ? { clock } : {}),
    });
    for (const seat of ['0', '1'] as const) {
      if (next[seat].length > 0)
        this.deps.nsp.to(next[seat]).emit(ServerEvents.update, message(seat));
    }
    for (const socket of behind.seats) await this.sendSync(room, socket);
    seatsTold?.();
    await room.audience.crowd.sending;
    if (next.spectators.length > 0) {
      const crowd = message('spectators');
      room.audience.crowd.sending = this.inSlices(next.spectators, (to) =>
        to.emit(ServerEvents.update, crowd),
      ).catch((error) =>
        this.deps.logger.error({ err: error, matchID }, 'fan-out to the crowd failed'),
      );
    }
    for (let i = 0; i < behind.spectators.length; i += CROWD_SLICE) {
      await this.sendSyncs(room, behind.spectators.slice(i, i + CROWD_SLICE));
    }
  }

  /**
   * Sends one frame to many sockets, CROWD_SLICE at a time, yielding to the event loop before
   * each slice (first, so that what was sent just before, the mover's acknowledgement, is
   * written out before the crowd's frames); the slices go in order.
   */
  private async inSlices(ids: string[], send: (to: ReturnType<GameNamespace['to']>) => void) {
    for (let i = 0; i < ids.length; i += CROWD_SLICE) {
      await nextTurn();
      send(this.deps.nsp.to(ids.slice(i, i + CROWD_SLICE)));
    }
  }

  private async presenceOf(room: Room, match: MatchRecord): Promise<Presence> {
    const attendance = await this.deps.presence.everywhere(match.matchID);
    const accounts = await room.accounts();
    const now = this.deps.time.now();
    const seatPresence = (seat: Seat) => {
      const connected = attendance.seats[seat] > 0;
      const away = this.awaySince(match, seat);
      return {
        name: match.players[Number(seat)]?.name ?? null,
        account: accounts[seat],
        connected,
        awayMs: connected ? null : Math.max(0, now - away),
      };
    };
    return {
      matchID: match.matchID,
      players: { '0': seatPresence('0'), '1': seatPresence('1') },
      spectators: attendance.spectators,
      status: match.status,
      result: match.result,
      graceMs: this.deps.graceMs,
      clock: match.clock ? clockState(match.clock, now) : null,
      rematch: match.rematch ?? { offers: [], matchID: null },
      // Rated play: whether it counts, and at the end each seat's change.
      ...(match.rated
        ? { rated: true, unrated: match.unrated ?? null, ratings: match.ratings ?? null }
        : {}),
    };
  }

  /**
   * Since when a disconnected seat counts as away: as stored, else since the last move or
   * this instance's start, whichever is later (a server killed outright stored nothing).
   */
  awaySince(match: MatchRecord, seat: Seat): number {
    const stored = match.players[Number(seat)]?.awaySince;
    if (stored) return Date.parse(stored);
    return Math.max(this.deps.startedAt, Date.parse(match.updatedAt));
  }

  /** Tells the room's sockets here the match's presence (the chat opens to all at its end). */
  async pushPresence(room: Room, match: MatchRecord): Promise<void> {
    await this.tellPresence(room, await this.presenceOf(room, match));
    await this.deps.chat.presenceChanged(room, match);
  }

  private async tellPresence(room: Room, presence: Presence): Promise<void> {
    room.audience.crowd.told = presence.spectators;
    await room.audience.crowd.sending;
    const ids = [...room.audience.viewers].map((socket) => socket.id);
    await this.inSlices(ids, (to) => to.emit(ServerEvents.presence, presence));
  }

  /**
   * A seat's presence or the match changed here: record this instance's sockets, tell ours,
   * then the other instances.
   */
  async announce(room: Room, match: MatchRecord): Promise<void> {
    const { fanout, presence } = this.deps;
    const here = presence.here(match.matchID);
    await fanout.share(match.matchID, here);
    room.audience.crowd.shared = here.spectators;
    await this.pushPresence(room, match);
    fanout.publish({ kind: 'presence', matchID: match.matchID });
  }

  /**
   * In the room, at its tick: this instance's spectators are shared with the others (when
   * they changed), and the room's sockets here are told the count everywhere (when it changed).
   */
  async tellCrowd(room: Room): Promise<void> {
    const { fanout, presence } = this.deps;
    const here = presence.here(room.matchID);
    if (here.spectators !== room.audience.crowd.shared) {
      await fanout.share(room.matchID, here);
      room.audience.crowd.shared = here.spectators;
      fanout.publish({ kind: 'crowd', matchID: room.matchID });
    }
    if (room.audience.viewers.size === 0) return;
    const match = await room.match();
    if (!match) return;
    const told = await this.presenceOf(room, match);
    if (told.spectators !== room.audience.crowd.told) await this.tellPresence(room, told);
  }
}
