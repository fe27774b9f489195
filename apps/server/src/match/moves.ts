import { type MoveName, type State, viewFor } from '@iron-curtain/game';
import { type RefusedMessage, updateRequestSchema, viewPatch } from '@iron-curtain/protocol';
import type { AckFn, GameSocket } from '../edge/game-sockets.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { TimeSource } from '../ops/time.ts';
import { clockState } from './clock.ts';
import type { MatchEnding } from './ending.ts';
import type { MatchEngine, MoveResult } from './engine.ts';
import type { Fanout } from './fanout.ts';
import type { MatchQueues } from './queues.ts';
import type { SeatSessions, StoredUpdate, UpdateHeader, Viewer } from './seat-sessions.ts';
import type { MatchClocks } from './turn-clocks.ts';

export interface MatchMovesDeps {
  engine: MatchEngine;
  queues: MatchQueues;
  metrics: Metrics;
  logger: Logger;
  fanout: Fanout;
  time: TimeSource;
  sessions: SeatSessions;
  clocks: MatchClocks;
  ending: MatchEnding;
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
}

/**
 * Moves: a seat's socket sends one, it is checked against the socket's seat and the match's
 * clock, the engine applies and stores it, and every viewer of the match (here and on other
 * instances) is sent what it changed in its own view.
 */
export class MatchMoves {
  constructor(private readonly deps: MatchMovesDeps) {}

  async update(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const received = performance.now();
    const { sessions, refuse } = this.deps;
    const parsed = updateRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return sessions.resync(socket);
    }
    const { matchID, stateID, action } = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return sessions.resync(socket);
    }
    if (seating.seat === null) {
      refuse(socket, { code: 'UNAUTHORIZED', message: 'spectators cannot move' }, ack);
      return sessions.resync(socket);
    }
    if (action.payload.playerID !== seating.seat) {
      refuse(
        socket,
        { code: 'UNAUTHORIZED', message: `this socket plays seat ${seating.seat} only` },
        ack,
      );
      return sessions.resync(socket);
    }
    const seat = seating.seat;
    const { queues, engine, metrics, clocks, ending, time, logger } = this.deps;
    await queues.run(matchID, async () => {
      const match = await engine.matchFor(matchID, stateID);
      if (!match) {
        refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
        return;
      }
      const now = time.now();
      if (clocks.fallen(match, now)) {
        await ending.onTime(match, now);
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
        );
      } catch (error) {
        logger.error({ err: error, matchID }, 'move failed');
        result = {
          ok: false,
          error: { code: 'SERVER_ERROR', message: 'the move could not be stored' },
        };
      }
      if (!result.ok) {
        refuse(socket, result.error, ack);
        await sessions.sendSync(socket);
        return;
      }
      await this.broadcast(matchID, result);
      if (result.clock) clocks.track({ ...match, clock: result.clock });
      ack?.({ ok: true });
      metrics.moves.inc();
      metrics.moveLatency.observe((performance.now() - received) / 1000);
      // A track win or final scoring: stored with its move (and the clock stopped) at once.
      if (result.result) await ending.end(match, result.result, now, 'stored with the move');
    });
  }

  /**
   * A state this instance stored: to its own sockets, then to every other instance's. Each
   * viewer is sent what the move changed in its own view, as a patch on the state before.
   * Alone (no Redis), a patch is made only for a viewer with a socket here: most matches have
   * no spectator, and a seat may be away.
   */
  private async broadcast(
    matchID: string,
    moved: Extract<MoveResult, { ok: true }>,
  ): Promise<void> {
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
    await sessions.deliver(update, patchFor);
  }
}
