import type { Seat } from '@iron-curtain/game';
import {
  type Presence,
  type RefusedMessage,
  ServerEvents,
  type SyncMessage,
  syncRequestSchema,
  type UpdateMessage,
} from '@iron-curtain/protocol';
import {
  type AckFn,
  type GameNamespace,
  type GameSocket,
  matchRoom,
  type Seating,
} from '../edge/game-sockets.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import { secretMatches } from '../ops/secrets.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord, Store } from '../storage/index.ts';
import { clockState } from './clock.ts';
import { frameFor, playedWith } from './engine.ts';
import type { Fanout, FanoutMessage } from './fanout.ts';
import type { PresenceBook } from './presence-book.ts';
import type { MatchQueues } from './queues.ts';

export type StoredUpdate = Extract<FanoutMessage, { kind: 'update' }>;
/** Who is sent a patch: a seat's sockets, or the spectators'. */
export type Viewer = keyof StoredUpdate['patches'];
/** An update without its patches, which are asked for per viewer (see `deliver`). */
export type UpdateHeader = Omit<StoredUpdate, 'patches'>;

export interface SeatSessionsDeps {
  nsp: GameNamespace;
  store: Store;
  queues: MatchQueues;
  presence: PresenceBook;
  metrics: Metrics;
  logger: Logger;
  fanout: Fanout;
  time: TimeSource;
  /** How long a seat must be away before its opponent may claim the win (ms). */
  graceMs: number;
  /** Absences before this instance started are counted from here at the earliest. */
  startedAt: number;
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
  closing: () => boolean;
  /** Told whenever a socket attaches to a match (computer players resume then). */
  onAttach?: ((match: MatchRecord) => void) | undefined;
  /** A seat or spectator left the match: re-read it and tell its sockets. */
  onLeave: (matchID: string) => void;
  /** A socket was sent its sync (the chat follows it). */
  onSynced?: ((socket: GameSocket, match: MatchRecord) => Promise<void>) | undefined;
  /** This instance's sockets of a match were told its presence (the chat opens at the end). */
  onPresence?: ((match: MatchRecord) => Promise<void>) | undefined;
}

/**
 * The seat sessions of the game service: a socket syncs as a seat (with credentials) or as
 * a spectator, is attached to its match's rooms and counted in presence, is sent the whole
 * picture on a sync and each stored state after (only on top of the state it holds), and is
 * detached when it goes. Presence (who is connected, how many watch, how long a seat is
 * away) is told to every socket of the match, here and, through the fan-out, elsewhere.
 */
export class SeatSessions {
  constructor(private readonly deps: SeatSessionsDeps) {
    deps.fanout.onMessage((message) => this.heard(message));
  }

  /** A socket asks to attach to a match as a seat or a spectator. */
  async sync(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const { store, queues, refuse } = this.deps;
    const parsed = syncRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return this.resync(socket);
    }
    const { matchID, playerID, credentials } = parsed.data;
    await queues.run(matchID, async () => {
      const match = await store.getMatch(matchID);
      if (!match) {
        refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
        return;
      }
      if (playerID !== null) {
        const seat = match.players.find((p) => p.seat === playerID);
        if (
          credentials === undefined ||
          !seat ||
          !secretMatches(credentials, seat.credentialsHash)
        ) {
          refuse(
            socket,
            { code: 'UNAUTHORIZED', message: `these credentials do not hold seat ${playerID}` },
            ack,
          );
          return;
        }
      }
      this.detach(socket);
      await this.attach(socket, { matchID, seat: playerID }, match);
      const stateID = await this.sendSync(socket, match);
      await this.deps.onSynced?.(socket, match);
      if (stateID !== undefined) await this.catchUp(matchID, stateID);
      ack?.({ ok: true });
      await this.announce(match);
    });
  }

  /** The whole picture again for a socket whose message was refused, in its match's queue. */
  async resync(socket: GameSocket): Promise<void> {
    const seating = socket.data.seating;
    if (seating) await this.deps.queues.run(seating.matchID, () => this.sendSync(socket));
  }

  /** Resolves once this instance hears the match's updates from other instances too. */
  private async attach(socket: GameSocket, seating: Seating, match: MatchRecord): Promise<void> {
    const { presence, metrics, fanout, store } = this.deps;
    socket.data.seating = seating;
    socket.data.stateID = undefined;
    void socket.join(matchRoom(seating.matchID));
    presence.join(seating.matchID, seating.seat);
    metrics.matchesActive.set(presence.size);
    await fanout.watch(seating.matchID);
    // A seat that is back is no longer away; one that was not away costs no write (a write
    // per sync was an fsync, and it made the SQLite store forget the match's record).
    const away = match.players.find((p) => p.seat === seating.seat)?.awaySince;
    if (seating.seat !== null && away) await store.setAway(seating.matchID, seating.seat, null);
    this.deps.onAttach?.(match);
  }

  /** The socket leaves its match (it went, or syncs with another). */
  detach(socket: GameSocket): void {
    const seating = socket.data.seating;
    if (!seating) return;
    const { presence, metrics, fanout } = this.deps;
    socket.data.seating = undefined;
    socket.data.stateID = undefined;
    void socket.leave(matchRoom(seating.matchID));
    presence.leave(seating.matchID, seating.seat);
    metrics.matchesActive.set(presence.size);
    fanout.unwatch(seating.matchID);
    // At shutdown every socket leaves at once: nobody left, the server did. Absence then
    // counts from the next start, and the clients reconnect to the next process.
    if (this.deps.closing()) return;
    if (seating.seat !== null) this.seatLeft(seating.matchID, seating.seat);
    this.deps.onLeave(seating.matchID);
  }

  /** The seat's last socket anywhere has gone: it is away from now (abandonment counts from here). */
  private seatLeft(matchID: string, seat: Seat): void {
    const { queues, presence, store, time, logger } = this.deps;
    void queues
      .run(matchID, async () => {
        const attendance = await presence.everywhere(matchID);
        if (attendance.seats[seat] > 0) return;
        await store.setAway(matchID, seat, new Date(time.now()).toISOString());
      })
      .catch((error) => logger.error({ err: error, matchID }, 'absence not stored'));
  }

  /**
   * Sends a socket the whole picture of its match, as its seat sees it; resolves to the
   * state id sent, if one was.
   */
  async sendSync(socket: GameSocket, known?: MatchRecord): Promise<number | undefined> {
    const seating = socket.data.seating;
    if (!seating || !socket.connected) return undefined;
    const { store, time } = this.deps;
    const match = known ?? (await store.getMatch(seating.matchID));
    const state = await store.loadState(seating.matchID);
    if (!match || !state) return undefined;
    // Another instance may store a move between the two reads: the log stops at the state.
    const moves = (await store.readMoves(seating.matchID)).filter(
      (m) => m.stateID <= state._stateID,
    );
    const clock = match.clock ? { clock: clockState(match.clock, time.now()) } : {};
    const message: SyncMessage = {
      matchID: seating.matchID,
      playerID: seating.seat,
      rules: playedWith(match).rules,
      state: { ...frameFor(state, seating.seat), ...clock },
      log: moves.flatMap((m) => m.entries),
      presence: await this.presenceOf(match),
    };
    if (!socket.connected || socket.data.seating !== seating) return undefined;
    socket.data.stateID = state._stateID;
    socket.emit(ServerEvents.sync, message);
    return state._stateID;
  }

  /**
   * The store holds a state some of this instance's sockets of the match never got: the
   * instance that stored it died before announcing it (or its fan-out message was lost).
   * Nothing else would tell them until the next move, so they get the whole picture now.
   */
  private async catchUp(matchID: string, stateID: number): Promise<void> {
    const { nsp } = this.deps;
    for (const id of [...(nsp.adapter.rooms.get(matchRoom(matchID)) ?? [])]) {
      const socket = nsp.sockets.get(id);
      const held = socket?.data.stateID;
      if (socket && held !== undefined && held < stateID) await this.sendSync(socket);
    }
  }

  /**
   * Sends a stored state's update to this instance's sockets of the match, each its own
   * view's patch, only to a socket holding the state the patch applies to: an older or
   * repeated state is dropped, and a socket that missed one (a fan-out message lost or
   * overtaken) gets the whole picture instead. `patchFor` is asked only for viewers with a
   * socket here that holds the state before.
   */
  async deliver(
    update: UpdateHeader,
    patchFor: (viewer: Viewer) => StoredUpdate['patches'][Viewer],
  ): Promise<void> {
    const { matchID, from, stateID, entries, clock } = update;
    const { nsp } = this.deps;
    const next: Record<Viewer, string[]> = { '0': [], '1': [], spectators: [] };
    const behind: GameSocket[] = [];
    for (const id of nsp.adapter.rooms.get(matchRoom(matchID)) ?? []) {
      const socket = nsp.sockets.get(id);
      const seating = socket?.data.seating;
      if (!socket || seating?.matchID !== matchID || socket.data.stateID === undefined) continue;
      if (socket.data.stateID >= stateID) continue;
      if (socket.data.stateID === from) {
        next[seating.seat ?? 'spectators'].push(id);
        socket.data.stateID = stateID;
      } else behind.push(socket);
    }
    for (const [viewer, ids] of Object.entries(next) as [Viewer, string[]][]) {
      if (ids.length === 0) continue;
      const message: UpdateMessage = {
        matchID,
        from,
        stateID,
        patch: patchFor(viewer),
        entries,
        ...(clock ? { clock } : {}),
      };
      nsp.to(ids).emit(ServerEvents.update, message);
    }
    for (const socket of behind) await this.sendSync(socket);
  }

  /** A message from another instance, handled in the match's queue like local work. */
  private heard(message: FanoutMessage): void {
    const { matchID } = message;
    const { queues, nsp, store, logger } = this.deps;
    void queues
      .run(matchID, async () => {
        if (message.kind === 'update') {
          await this.deliver(message, (viewer) => message.patches[viewer]);
          return;
        }
        if (message.kind !== 'presence') return;
        if (!nsp.adapter.rooms.has(matchRoom(matchID))) return;
        const match = await store.getMatch(matchID);
        if (match) await this.pushPresence(match);
      })
      .catch((error) => logger.error({ err: error, matchID }, 'fan-out delivery failed'));
  }

  private async presenceOf(match: MatchRecord): Promise<Presence> {
    const attendance = await this.deps.presence.everywhere(match.matchID);
    const now = this.deps.time.now();
    const seatPresence = (seat: Seat) => {
      const connected = attendance.seats[seat] > 0;
      const away = this.awaySince(match, seat);
      return {
        name: match.players[Number(seat)]?.name ?? null,
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

  private async pushPresence(match: MatchRecord): Promise<void> {
    this.deps.nsp
      .to(matchRoom(match.matchID))
      .emit(ServerEvents.presence, await this.presenceOf(match));
    await this.deps.onPresence?.(match);
  }

  /** Presence changed here: record this instance's sockets, tell ours, then the other instances. */
  async announce(match: MatchRecord): Promise<void> {
    const { fanout, presence } = this.deps;
    await fanout.share(match.matchID, presence.here(match.matchID));
    await this.pushPresence(match);
    fanout.publish({ kind: 'presence', matchID: match.matchID });
  }
}
