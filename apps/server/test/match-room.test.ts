import type { RefusedMessage } from '@iron-curtain/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { GameSocket } from '../src/edge/game-sockets.ts';
import type { MatchChat } from '../src/match/chat.ts';
import type { MatchEnding } from '../src/match/ending.ts';
import { MatchRoom, type RoomParts } from '../src/match/match-room.ts';
import type { MatchMoves, MoveOutcome } from '../src/match/moves.ts';
import type { MoveEvent, RoomView } from '../src/match/room.ts';
import type { SeatSessions } from '../src/match/seat-sessions.ts';
import type { TurnClock } from '../src/match/turn-clock.ts';
import type { TurnNews } from '../src/match/turn-news.ts';
import type { Logger } from '../src/ops/logger.ts';
import type { MatchRecord, StoredState } from '../src/storage/index.ts';
import { ManualTime } from './manual-time.ts';

const MATCH = 'room-under-test';
const record = (updatedAt: string) =>
  ({ matchID: MATCH, status: 'playing', clock: null, updatedAt }) as unknown as MatchRecord;
const stateAt = (stateID: number) => ({ _stateID: stateID }) as unknown as StoredState;
const socket = (id: string) => ({ id, connected: true, data: {} }) as unknown as GameSocket;
const moveBy = (id: string): MoveEvent => ({
  kind: 'move',
  socket: socket(id),
  seat: '0',
  request: {} as MoveEvent['request'],
  ack: undefined,
  received: 0,
});

/**
 * A room on fake parts: its moves are whatever `move` answers, everything it tells is
 * written down in `told`, the store is a record that never changes.
 */
function roomWith(move: (room: RoomView, event: MoveEvent) => Promise<MoveOutcome>) {
  const told: string[] = [];
  const errors: unknown[] = [];
  const parts: RoomParts = {
    moves: { move } as unknown as MatchMoves,
    sessions: {
      sendSync: async (_room: RoomView, to: GameSocket) => {
        told.push(`resync ${to.id}`);
        return undefined;
      },
      broadcast: async (_room: RoomView, update: { stateID: number }) => {
        told.push(`update ${update.stateID}`);
      },
      announce: async () => {
        told.push('announce');
      },
    } as unknown as SeatSessions,
    clock: {
      arm: () => undefined,
      clear: () => undefined,
      start: async (_room: RoomView, match: MatchRecord) => ({ record: match }),
    } as unknown as TurnClock,
    ending: {} as MatchEnding,
    chat: {} as MatchChat,
    news: { decisionPassed: () => undefined, ended: () => undefined } as unknown as TurnNews,
    logger: { error: (error: unknown) => errors.push(error) } as unknown as Logger,
    time: new ManualTime(0),
    refuse: (to: GameSocket, error: RefusedMessage) => told.push(`refused ${to.id} ${error.code}`),
    answer: (to: GameSocket, error: RefusedMessage) => told.push(`answered ${to.id} ${error.code}`),
    read: async () => record('as stored'),
    readAccounts: async () => ({ '0': null, '1': null }),
    loadState: async () => stateAt(0),
    readMoves: async () => [],
    idle: () => undefined,
    detach: () => undefined,
  };
  return { room: new MatchRoom(MATCH, parts), told, errors, parts };
}

/** An accepted move's outcome: the state `stateID` stored, and its update told. */
const accepted = (stateID: number): MoveOutcome => ({
  record: record(`move ${stateID}`),
  state: stateAt(stateID),
  tell: [
    {
      kind: 'update',
      update: { kind: 'update', matchID: MATCH, from: stateID - 1, stateID, entries: [] },
      patchFor: () => [],
      seatsTold: () => undefined,
    },
  ],
});

describe('a match room on fake parts', () => {
  it('handles its events one at a time in arrival order, so a slow move is never overtaken', async () => {
    const steps: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { room, told } = roomWith(async (_room, event) => {
      const id = event.socket.id;
      steps.push(`begin ${id}`);
      if (id === 'slow') await held;
      steps.push(`end ${id}`);
      return accepted(id === 'slow' ? 1 : 2);
    });
    const first = room.tell(moveBy('slow'));
    const second = room.tell(moveBy('quick'));
    // The quick move waits its turn while the slow one is held.
    await vi.waitFor(() => expect(steps).toEqual(['begin slow']));
    expect(room.busy).toBe(true);
    release();
    await Promise.all([first, second]);
    expect(steps).toEqual(['begin slow', 'end slow', 'begin quick', 'end quick']);
    expect(told).toEqual(['update 1', 'update 2']);
    expect(room.state).toEqual(stateAt(2));
    expect(room.busy).toBe(false);
  });

  it('keeps the record and state it held when a move is refused, and tells only the mover', async () => {
    const { room, told } = roomWith(async (_room, event) =>
      event.socket.id === 'good'
        ? accepted(1)
        : {
            tell: [
              {
                kind: 'refused',
                socket: event.socket,
                error: { code: 'INVALID_MOVE', message: 'not now' },
                ack: undefined,
              },
              { kind: 'resync', socket: event.socket },
            ],
          },
    );
    await room.tell(moveBy('good'));
    const before = { record: room.record, state: room.state };
    await room.tell(moveBy('bad'));
    expect({ record: room.record, state: room.state }).toEqual(before);
    expect(room.record).toEqual(record('move 1'));
    expect(told).toEqual(['update 1', 'refused bad INVALID_MOVE', 'resync bad']);
  });

  it("makes a lobby's write in its turn, after the move in hand, then tells everyone", async () => {
    const steps: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { room, told } = roomWith(async () => {
      steps.push('move begins');
      await held;
      steps.push('move ends');
      return accepted(1);
    });
    const move = room.tell(moveBy('mover'));
    const write = room.tell({
      kind: 'write',
      write: async () => {
        steps.push('seat claimed');
        return true;
      },
    });
    await vi.waitFor(() => expect(steps).toEqual(['move begins']));
    release();
    await Promise.all([move, write]);
    expect(steps).toEqual(['move begins', 'move ends', 'seat claimed']);
    // The room read the match again after the write and announced it.
    expect(told).toEqual(['update 1', 'announce']);
    expect(room.record).toEqual(record('as stored'));
  });

  it('stays usable when a part throws: the event fails alone, the next is handled', async () => {
    const { room, told } = roomWith(async (_room, event) => {
      if (event.socket.id === 'broken') throw new Error('the part broke');
      return accepted(1);
    });
    const broken = room.tell(moveBy('broken'));
    const next = room.tell(moveBy('after'));
    await expect(broken).rejects.toThrow('the part broke');
    await next;
    expect(room.state).toEqual(stateAt(1));
    expect(told).toEqual(['update 1']);
    expect(room.busy).toBe(false);
    // Nothing queued, nobody here, no timer: the registry may forget it.
    expect(room.idle).toBe(true);
  });
});
