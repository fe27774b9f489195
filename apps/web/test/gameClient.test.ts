import type { Seat, State } from '@iron-curtain/game';
import { type Presence, viewPatch } from '@iron-curtain/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GameClient } from '../src/match/gameClient.ts';
import { FakeTransport } from './fakeTransport.ts';
import { newMatch, play, RULES, wireView } from './fixtures.ts';

const MATCH = 'match-0001';

afterEach(() => {
  vi.useRealTimers();
});
const CREDENTIALS = 'c'.repeat(24);

const presence: Presence = {
  matchID: MATCH,
  players: { '0': { name: 'Ann', connected: true }, '1': { name: 'Boris', connected: true } },
  spectators: 0,
};

const frame = (state: State, seat: Seat | null, stateID: number) => ({
  G: wireView(state, seat),
  stateID,
});

function setup(seat: Seat | null = '1') {
  const transport = new FakeTransport();
  const client = new GameClient(transport, MATCH, seat, seat === null ? undefined : CREDENTIALS);
  client.start();
  return { transport, client };
}

function synced(seat: Seat | null = '1') {
  const parts = setup(seat);
  const state = newMatch();
  parts.transport.connect();
  parts.transport.emit('sync', {
    matchID: MATCH,
    playerID: seat,
    rules: RULES,
    state: frame(state, seat, 3),
    log: [],
    presence,
  });
  return { ...parts, state };
}

describe('the game client', () => {
  it('syncs its seat with its credentials on every connect', () => {
    const { transport, client } = setup();
    expect(transport.opened).toBe(1);
    expect(client.getSnapshot().connection).toBe('connecting');
    transport.connect();
    expect(transport.last('sync').payload).toEqual({
      matchID: MATCH,
      playerID: '1',
      credentials: CREDENTIALS,
    });
    transport.drop();
    expect(client.getSnapshot().connection).toBe('reconnecting');
    transport.connect();
    expect(transport.sent.filter((s) => s.event === 'sync')).toHaveLength(2);
  });

  it('spectates without credentials', () => {
    const { transport } = setup(null);
    transport.connect();
    expect(transport.last('sync').payload).toEqual({ matchID: MATCH, playerID: null });
  });

  it('takes the view, log and presence from the server sync', () => {
    const { client, state } = synced();
    const snap = client.getSnapshot();
    expect(snap.synced).toBe(true);
    expect(snap.connection).toBe('online');
    expect(snap.stateID).toBe(3);
    expect(snap.view?.decision).toEqual(state.decision);
    expect(snap.presence?.players['0'].name).toBe('Ann');
  });

  it('sends a move with the state id it was chosen on, asks no ack, and applies the update', () => {
    const { client, transport, state } = synced();
    client.makeMove('chooseFirstPlayer', ['US']);
    expect(client.getSnapshot().pending).toBe(true);
    // A second move while the first is on its way is not sent.
    client.makeMove('chooseFirstPlayer', ['USSR']);
    expect(transport.sent.filter((s) => s.event === 'update')).toHaveLength(1);
    // Its answer is the update every seat is sent: an ack would be one more frame per move.
    expect(transport.last('update').wantsAck).toBe(false);
    expect(transport.last('update').payload).toEqual({
      matchID: MATCH,
      stateID: 3,
      action: {
        type: 'MAKE_MOVE',
        payload: { type: 'chooseFirstPlayer', args: ['US'], playerID: '1' },
      },
    });
    const before = wireView(state, '1');
    const entries = play(state, ['1', 'chooseFirstPlayer', 'US']);
    const patch = viewPatch(before, wireView(state, '1'));
    transport.emit('update', { matchID: MATCH, from: 3, stateID: 4, patch, entries });
    const snap = client.getSnapshot();
    expect(snap.pending).toBe(false);
    expect(snap.stateID).toBe(4);
    expect(snap.log).toEqual(entries);
    expect(snap.recent).toEqual(entries);
    expect(snap.view?.decision).toEqual({ kind: 'playCard', seat: '0' });
  });

  it('sends a confirmed draft of cubes as one update, and one update answers it', () => {
    const { client, transport } = synced();
    const state = newMatch();
    play(
      state,
      ['1', 'chooseFirstPlayer', 'USSR'],
      ['1', 'playCard', 'iran', { x: 1, y: 0 }],
      ['0', 'decideEvent', false],
    );
    transport.emit('sync', {
      matchID: MATCH,
      playerID: '1',
      rules: RULES,
      state: frame(state, '1', 6),
      log: [],
      presence,
    });
    const updates = () => transport.sent.filter((s) => s.event === 'update');
    const cubes = [['iran'], ['iran']];
    client.makeMove('placeCubes', [cubes]);
    expect(updates()).toHaveLength(1);
    expect(transport.last('update').payload).toEqual({
      matchID: MATCH,
      stateID: 6,
      action: { type: 'MAKE_MOVE', payload: { type: 'placeCubes', args: [cubes], playerID: '1' } },
    });
    const before = wireView(state, '1');
    const entries = play(state, ['1', 'placeCubes', cubes]);
    const patch = viewPatch(before, wireView(state, '1'));
    transport.emit('update', { matchID: MATCH, from: 6, stateID: 7, patch, entries });
    const snap = client.getSnapshot();
    // Both cubes arrived with the one update; nothing more is sent and nothing is awaited.
    expect(snap.pending).toBe(false);
    expect(snap.recent.filter((e) => e.type === 'place')).toHaveLength(2);
    expect(snap.view?.decision).toEqual({ kind: 'playCard', seat: '0' });
    expect(updates()).toHaveLength(1);
  });

  it('ignores an update older than the state it holds', () => {
    const { client, transport, state } = synced();
    transport.emit('update', { matchID: MATCH, from: 1, stateID: 2, patch: [], entries: [] });
    expect(client.getSnapshot().stateID).toBe(3);
    expect(client.getSnapshot().view).toEqual(wireView(state, '1'));
  });

  it('asks for the whole picture when an update does not apply to the state it holds', () => {
    const { client, transport } = synced();
    const syncs = transport.sent.filter((s) => s.event === 'sync').length;
    transport.emit('update', { matchID: MATCH, from: 5, stateID: 6, patch: [], entries: [] });
    transport.emit('update', {
      matchID: MATCH,
      from: 3,
      stateID: 4,
      patch: [{ op: 'remove', path: '/no/such/field' }],
      entries: [],
    });
    expect(transport.sent.filter((s) => s.event === 'sync')).toHaveLength(syncs + 2);
    expect(client.getSnapshot().stateID).toBe(3);
  });

  it('shows a refused move and frees the controls', () => {
    const { client, transport } = synced();
    client.makeMove('chooseFirstPlayer', ['US']);
    transport.emit('refused', { code: 'STALE_STATE', message: 'the state changed; try again' });
    const snap = client.getSnapshot();
    expect(snap.pending).toBe(false);
    expect(snap.refusal).toEqual({ code: 'STALE_STATE', message: 'the state changed; try again' });
    expect(snap.fatal).toBeNull();
    client.dismissRefusal();
    expect(client.getSnapshot().refusal).toBeNull();
  });

  it('says so when the server does not answer a move, and syncs again', () => {
    vi.useFakeTimers();
    const { client, transport } = synced();
    client.makeMove('chooseFirstPlayer', ['US']);
    vi.advanceTimersByTime(9_999);
    expect(client.getSnapshot().pending).toBe(true);
    vi.advanceTimersByTime(1);
    expect(client.getSnapshot().refusal?.message).toMatch(/did not answer/);
    expect(client.getSnapshot().pending).toBe(false);
    expect(transport.sent.filter((s) => s.event === 'sync')).toHaveLength(2);
  });

  it('forgets the deadline of a move once it is answered', () => {
    vi.useFakeTimers();
    const { client, transport, state } = synced();
    client.makeMove('chooseFirstPlayer', ['US']);
    const before = wireView(state, '1');
    const entries = play(state, ['1', 'chooseFirstPlayer', 'US']);
    const patch = viewPatch(before, wireView(state, '1'));
    expect(vi.getTimerCount()).toBe(1);
    transport.emit('update', { matchID: MATCH, from: 3, stateID: 4, patch, entries });
    expect(vi.getTimerCount()).toBe(0);
    // The opponent thinks for a long while: the answered move does not time out meanwhile.
    vi.advanceTimersByTime(60_000);
    expect(client.getSnapshot().refusal).toBeNull();
    expect(transport.sent.filter((s) => s.event === 'sync')).toHaveLength(1);
  });

  it('treats refused credentials as a dead end, not a reconnect loop', async () => {
    const { client, transport } = setup();
    transport.connect();
    transport.last('sync').answer({
      ok: false,
      error: { code: 'UNAUTHORIZED', message: 'these credentials do not hold seat 1' },
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(client.getSnapshot().fatal?.code).toBe('UNAUTHORIZED');
    expect(transport.closed).toBe(1);
  });

  it('reports a message it cannot read instead of freezing', () => {
    const { client, transport } = synced();
    transport.emit('update', { matchID: MATCH, state: { G: 'nonsense' } });
    expect(client.getSnapshot().refusal?.code).toBe('BAD_MESSAGE');
    expect(client.getSnapshot().stateID).toBe(3);
  });

  it('closes the connection when stopped', () => {
    const { client, transport } = setup();
    client.stop();
    expect(transport.closed).toBe(1);
  });
});
