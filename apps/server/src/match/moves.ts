import { type MoveName, type Seat, type State, viewFor } from '@iron-curtain/game';
import {
  type RefusedMessage,
  type UpdateRequest,
  updateRequestSchema,
  viewPatch,
} from '@iron-curtain/protocol';
import type { AckFn, GameSocket } from '../edge/game-sockets.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { TimeSource } from '../ops/time.ts';
import type { MatchRecord } from '../storage/index.ts';
import { clockState } from './clock-record.ts';
import type { MatchEnding } from './ending.ts';
import type { MatchEngine, MoveResult } from './engine.ts';
import type { Fanout } from './fanout.ts';
import type { MoveEvent, Room } from './room.ts';
import type { SeatSessions, StoredUpdate, UpdateHeader, Viewer } from './seat-sessions.ts';
import type { TurnClock } from './turn-clock.ts';
import type { TurnNews } from './turn-news.ts';

/** The seat a move handed the decision to; undefined when the same seat decides again, or nobody. */
function passedTo(before: State, after: State): Seat | undefined {
  const next = after.decision?.seat;
  return next !== undefined && next !== before.decision?.seat ? next : undefined;
}

export interface MatchMovesDeps {
  engine: MatchEngine;
  metrics: Metrics;
  logger: Logger;
  fanout: Fanout;
  time: TimeSource;
  sessions: SeatSessions;
  clock: TurnClock;
  ending: MatchEnding;
  news: TurnNews;
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
}

/** A move as a seat's socket sent it, checked at the door. */
export interface MoveAsked {
  seat: Seat;
  request: UpdateRequest;
}

/**
 * Moves in a match's room: a seat's socket sends one, it is checked against the socket's seat
 * and the match's clock, the engine applies and stores it, and every viewer of the match
 * (here and on other instances) is sent what it changed in its own view.
 */
export class MatchMoves {
  constructor(private readonly deps: MatchMovesDeps) {}

  /**
   * The move a message asks for, checked against the socket's seat (the shape was checked by
   * the schema); undefined when refused (the caller re-syncs the socket).
   */
  moveRequest(socket: GameSocket, payload: unknown, ack?: AckFn): MoveAsked | undefined {
    const { refuse } = this.deps;
    const parsed = updateRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return undefined;
    }
    const request = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== request.matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return undefined;
    }
    if (seating.seat === null) {
      refuse(socket, { code: 'UNAUTHORIZED', message: 'spectators cannot move' }, ack);
      return undefined;
    }
    if (request.action.payload.playerID !== seating.seat) {
      refuse(
        socket,
        { code: 'UNAUTHORIZED', message: `this socket plays seat ${seating.seat} only` },
        ack,
      );
      return undefined;
    }
    return { seat: seating.seat, request };
  }

  /** In the room: makes the move, stores it, tells every viewer; a refusal re-syncs the socket. */
  async move(room: Room, event: MoveEvent): Promise<void> {
    const { socket, seat, request, ack, received } = event;
    const { stateID, action } = request;
    const { engine, metrics, clock, ending, sessions, time, logger, refuse } = this.deps;
    const match = await room.match();
    if (!match) {
      refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
      return;
    }
    const now = time.now();
    if (clock.fallen(match, now)) {
      await ending.onTime(room, match, now);
      refuse(socket, { code: 'INVALID_MOVE', message: 'the clock ran out' }, ack);
      return;
    }
    let result: MoveResult;
    try {
      result = await engine.move(
        match,
        {
          seat,
          stateID,
          move: action.payload.type as MoveName,
          args: action.payload.args as unknown[],
        },
        match.clock ? { clock: match.clock, now } : undefined,
        room.state,
        room.playedWith(match),
      );
    } catch (error) {
      logger.error({ err: error, matchID: room.matchID }, 'move failed');
      result = {
        ok: false,
        error: { code: 'SERVER_ERROR', message: 'the move could not be stored' },
      };
    }
    if (!result.ok) {
      if (result.error.code === 'STALE_STATE' || result.error.code === 'SERVER_ERROR') {
        // Another writer moved on (or the store failed): what the room keeps may be behind.
        room.state = undefined;
        room.record = undefined;
      }
      refuse(socket, result.error, ack);
      await sessions.sendSync(room, socket);
      return;
    }
    const moved: MatchRecord = {
      ...match,
      updatedAt: result.at,
      ...(result.clock ? { clock: result.clock } : {}),
    };
    room.state = result.state;
    room.record = moved;
    if (room.log?.stateID === result.previous._stateID) {
      room.log.entries.push(...result.entries);
      room.log.stateID = result.state._stateID;
    }
    // The mover hears before the crowd is sent the move.
    await this.broadcast(room, result, () => {
      ack?.({ ok: true });
      metrics.moves.inc();
      metrics.moveLatency.observe((performance.now() - received) / 1000);
    });
    if (result.clock) clock.arm(room, moved);
    const next = result.result
      ? undefined
      : passedTo(result.previous.G as State, result.state.G as State);
    if (next !== undefined) this.deps.news.decisionPassed(moved, next);
    // A track win or final scoring: stored with its move (and the clock stopped) at once.
    if (result.result) {
      await ending.ended(room, { ...moved, status: 'finished', result: result.result });
    }
  }

  /**
   * A state this instance stored: to its own sockets, then to every other instance's. Each
   * viewer is sent what the move changed in its own view, as a patch on the state before.
   * Alone (no Redis), a patch is made only for a viewer with a socket here: most matches have
   * no spectator, and a seat may be away. `seatsTold` runs once the seats here have theirs,
   * before the crowd here is sent its own.
   */
  private async broadcast(
    room: Room,
    moved: Extract<MoveResult, { ok: true }>,
    seatsTold: () => void,
  ): Promise<void> {
    const { matchID } = room;
    const before = moved.previous.G as State;
    const after = moved.state.G as State;
    const made = new Map<Viewer, StoredUpdate['patches'][Viewer]>();
    const patchFor = (viewer: Viewer) => {
      let patch = made.get(viewer);
      if (!patch) {
        const seat = viewer === 'spectators' ? null : viewer;
        patch = viewPatch(viewFor(before, seat), viewFor(after, seat));
        made.set(viewer, patch);
      }
      return patch;
    };
    const update: UpdateHeader = {
      kind: 'update',
      matchID,
      from: moved.previous._stateID,
      stateID: moved.state._stateID,
      entries: moved.entries,
      ...(moved.clock ? { clock: clockState(moved.clock, this.deps.time.now()) } : {}),
    };
    const { fanout, sessions } = this.deps;
    if (fanout.kind !== 'local') {
      const patches = {
        '0': patchFor('0'),
        '1': patchFor('1'),
        spectators: patchFor('spectators'),
      };
      fanout.publish({ ...update, patches });
    }
    await sessions.deliver(room, update, patchFor, seatsTold);
  }
}
