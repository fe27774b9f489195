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
import { clockState, timeUp } from './clock-record.ts';
import type { MatchEngine, MoveResult } from './engine.ts';
import type {
  MoveEvent,
  Notice,
  Outcome,
  RoomView,
  StoredUpdate,
  UpdateHeader,
  Viewer,
} from './room.ts';

/** The seat a move handed the decision to; undefined when the same seat decides again, or nobody. */
function passedTo(before: State, after: State): Seat | undefined {
  const next = after.decision?.seat;
  return next !== undefined && next !== before.decision?.seat ? next : undefined;
}

export interface MatchMovesDeps {
  engine: MatchEngine;
  metrics: Metrics;
  logger: Logger;
  time: TimeSource;
  /** Refuses a message at the door (before it reaches the room). */
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
}

/**
 * What a move came to: the outcome to apply, and for the room to act on first or after, the
 * running seat's time found up (the match ends on time before the move is refused) or the
 * match the move ended (it ends once the move is told).
 */
export interface MoveOutcome extends Outcome {
  timeUp?: { match: MatchRecord; now: number };
  finished?: MatchRecord;
}

/** A move as a seat's socket sent it, checked at the door. */
export interface MoveAsked {
  seat: Seat;
  request: UpdateRequest;
}

/**
 * Moves in a match's room: a seat's socket sends one, it is checked against the socket's seat
 * and the match's clock, the engine applies and stores it, and the room is returned what
 * changed: the record, state and log, and for every viewer of the match (here and on other
 * instances) what it changed in its own view.
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

  /**
   * In the room: makes the move and stores it; returns what changed and what to tell, or the
   * refusal (and a re-sync of the socket), changing nothing the room keeps unless another
   * writer may have moved on.
   */
  async move(room: RoomView, event: MoveEvent): Promise<MoveOutcome> {
    const { socket, seat, request, ack, received } = event;
    const { stateID, action } = request;
    const { engine, metrics, time, logger } = this.deps;
    const refused = (error: RefusedMessage): Notice => ({ kind: 'refused', socket, error, ack });
    const match = await room.match();
    if (!match) return { tell: [refused({ code: 'UNKNOWN_MATCH', message: 'no such match' })] };
    const now = time.now();
    if (timeUp(match, now)) {
      return {
        timeUp: { match, now },
        tell: [refused({ code: 'INVALID_MOVE', message: 'the clock ran out' })],
      };
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
      const resync: Notice = { kind: 'resync', socket };
      if (result.error.code === 'STALE_STATE' || result.error.code === 'SERVER_ERROR') {
        // Another writer moved on (or the store failed): what the room keeps may be behind.
        return { record: null, state: null, tell: [refused(result.error), resync] };
      }
      return { tell: [refused(result.error), resync] };
    }
    const moved: MatchRecord = {
      ...match,
      updatedAt: result.at,
      ...(result.clock ? { clock: result.clock } : {}),
    };
    // The mover hears before the crowd is sent the move.
    const tell: Notice[] = [
      this.update(room.matchID, result, () => {
        ack?.({ ok: true });
        metrics.moves.inc();
        metrics.moveLatency.observe((performance.now() - received) / 1000);
      }),
    ];
    const next = result.result
      ? undefined
      : passedTo(result.previous.G as State, result.state.G as State);
    if (next !== undefined) tell.push({ kind: 'passed', match: moved, seat: next });
    return {
      record: moved,
      state: result.state,
      logged: {
        from: result.previous._stateID,
        to: result.state._stateID,
        entries: result.entries,
      },
      ...(result.clock ? { clock: moved } : {}),
      tell,
      // A track win or final scoring: stored with its move (and the clock stopped) at once.
      ...(result.result
        ? { finished: { ...moved, status: 'finished', result: result.result } }
        : {}),
    };
  }

  /**
   * A state this instance stored, as told to every viewer: each is sent what the move changed
   * in its own view, as a patch on the state before, made only when a viewer needs it (see
   * SeatSessions.broadcast). `seatsTold` runs once the seats here have theirs.
   */
  private update(
    matchID: string,
    moved: Extract<MoveResult, { ok: true }>,
    seatsTold: () => void,
  ): Notice {
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
    return { kind: 'update', update, patchFor, seatsTold };
  }
}
