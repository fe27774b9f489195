import { applyUpdate, type UpdateMessage } from '@iron-curtain/protocol';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { returnAfterRestart } from '../../../apps/web/src/match/restart-return.ts';
import {
  BENCH_SETUP_DATA,
  type BenchMove,
  randomLegalMove,
  type Seat,
  type State,
} from '../lib/iron-curtain.ts';
import type { TargetKind } from '../lib/targets.ts';

/** What one step of a match did. */
export type StepResult =
  | { kind: 'moved'; rtt: number }
  | { kind: 'refused'; code: string }
  /** The match is over (ours) and should be replaced by a new one. */
  | { kind: 'over' };

/**
 * One match as the benchmark plays it: two seats, each with its own socket, moving
 * whenever it is their decision. The echo floor is the same shape: two sockets taking
 * turns, each 'move' one echo of a frame-sized payload.
 */
export interface MatchDriver {
  /** Creates the match (through the lobby where there is one) and syncs both seats. */
  open(): Promise<void>;
  /** One move by whoever must move; resolves when the mover has the resulting state. */
  step(): Promise<StepResult>;
  /** Sockets that are synced with the current state (after a reconnect too). */
  syncedSockets(): number;
  /** Changes whenever the state either seat holds changes (the sum of their state ids). */
  stateKey(): number;
  /** Calls `listener` when a socket is synced again after it lost its connection. */
  onResync(listener: (at: number) => void): void;
  close(): void;
}

export interface DriverContext {
  kind: TargetKind;
  base: string;
  /** The echo payload: one real update frame. */
  frame: unknown;
  stepTimeoutMs: number;
  /**
   * Reconnect after a server-side disconnect (what a correct client must do itself);
   * false behaves like socket.io-client alone, as apps/web's transport does today.
   */
  reconnectOnServerDisconnect: boolean;
  /**
   * Each match's sockets come from an address of their own in 127.0.0.0/8, like players at
   * different homes (the server's per-address limits then see one player each).
   */
  spreadAddresses?: boolean;
}

/** A random loopback address other than 127.0.0.1 and 127.0.0.2 (the flood's). */
const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** Reconnection settings of our web client (apps/web/src/match/transport.ts). */
const SOCKET_OPTIONS: Partial<ManagerOptions & SocketOptions> = {
  transports: ['websocket'],
  reconnectionDelay: 250,
  reconnectionDelayMax: 4000,
  forceNew: true,
};

async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** Resolves with the first event that `match` accepts, or rejects after `ms`. */
function waitFor<T>(
  socket: Socket,
  events: string[],
  match: (event: string, args: unknown[]) => T | undefined,
  ms: number,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const handlers = new Map<string, (...args: unknown[]) => void>();
    const done = () => {
      clearTimeout(timer);
      for (const [event, handler] of handlers) socket.off(event, handler);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`no ${events.join('/')} within ${ms} ms`));
    }, ms);
    for (const event of events) {
      const handler = (...args: unknown[]) => {
        const value = match(event, args);
        if (value !== undefined) {
          done();
          resolve(value);
        }
      };
      handlers.set(event, handler);
      socket.on(event, handler);
    }
  });
}

/**
 * Keeps a socket connected even when the server ends it on purpose: socket.io-client
 * does not reconnect after a server-side disconnect ('io server disconnect', what a
 * graceful shutdown sends), so a client that wants to survive a restart asks again.
 */
function reconnectAfterServerDisconnect(socket: Socket, tally: Tally, enabled: boolean): void {
  socket.on('disconnect', (reason) => {
    if (reason === 'io server disconnect') {
      tally.serverDisconnects += 1;
      if (enabled) setTimeout(() => socket.connect(), 500 * (0.5 + Math.random()));
    }
  });
}

/** Counts kept per worker about how sockets lost their connection. */
export interface Tally {
  serverDisconnects: number;
}

export function createDriver(ctx: DriverContext, tally: Tally): MatchDriver {
  switch (ctx.kind) {
    case 'echo':
      return new EchoMatch(ctx, tally);
    case 'stock':
      return new StockMatch(TRIVIAL, ctx, tally);
    case 'stock-ic':
      return new StockMatch(IRON_CURTAIN, ctx, tally);
    case 'sqlite':
    case 'postgres':
      return new OurMatch(ctx, tally);
  }
}

class EchoMatch implements MatchDriver {
  private sockets: Socket[] = [];
  private turn = 0;
  private synced = new Set<Socket>();
  private resync: ((at: number) => void) | undefined;
  constructor(
    private readonly ctx: DriverContext,
    private readonly tally: Tally,
  ) {}

  async open() {
    for (let i = 0; i < 2; i++) {
      const socket = io(`${this.ctx.base}/echo`, SOCKET_OPTIONS);
      reconnectAfterServerDisconnect(socket, this.tally, this.ctx.reconnectOnServerDisconnect);
      socket.on('disconnect', () => this.synced.delete(socket));
      let connectedBefore = false;
      socket.on('connect', () => {
        // Resynced = a round trip through the new connection.
        socket.emit('echo', { hello: true });
        void waitFor(socket, ['echo'], () => true, 30_000).then(
          () => {
            this.synced.add(socket);
            if (connectedBefore) this.resync?.(Date.now());
            connectedBefore = true;
          },
          () => undefined,
        );
      });
      this.sockets.push(socket);
    }
    await Promise.all(
      this.sockets.map((s) =>
        waitFor(s, ['connect'], () => true, 30_000).then(() =>
          waitFor(s, ['echo'], () => true, 30_000),
        ),
      ),
    );
  }

  async step(): Promise<StepResult> {
    const socket = this.sockets[this.turn++ % 2] as Socket;
    const started = performance.now();
    const reply = waitFor(socket, ['echo'], () => true, this.ctx.stepTimeoutMs);
    socket.emit('echo', this.ctx.frame);
    await reply;
    return { kind: 'moved', rtt: performance.now() - started };
  }

  syncedSockets() {
    return this.synced.size;
  }
  stateKey() {
    return 0;
  }
  onResync(listener: (at: number) => void) {
    this.resync = listener;
  }
  close() {
    for (const s of this.sockets) s.close();
  }
}

interface StockState {
  _stateID: number;
  G: unknown;
  ctx: { currentPlayer: string; gameover?: unknown };
}

/** What the stock driver needs to know of the game a stock server runs. */
interface StockGame {
  name: string;
  setupData?: unknown;
  /** The player who must move, read from any seat's state. */
  mover(state: StockState): string | undefined;
  /** The mover's move, picked on the state the mover itself received. */
  pick(own: StockState, playerID: string): BenchMove | undefined;
}

const TRIVIAL: StockGame = {
  name: 'trivial',
  mover: (state) => state.ctx.currentPlayer,
  pick: () => ({ move: 'bump', args: [] }),
};

/**
 * Our Game on the stock server: the one who must decide moves (the engine's decider, which
 * the Game makes boardgame.io's current player), a random legal move on its own view of G.
 */
const IRON_CURTAIN: StockGame = {
  name: 'iron-curtain',
  setupData: BENCH_SETUP_DATA,
  mover: (state) => (state.G as State).decision?.seat,
  pick: (own, playerID) => randomLegalMove(own.G as State, playerID as Seat),
};

/** boardgame.io 0.50.2's own socket protocol (src/client/transport/socketio.ts). */
class StockMatch implements MatchDriver {
  private seats: { socket: Socket; playerID: string; credentials: string; state?: StockState }[] =
    [];
  private matchID = '';
  private synced = new Set<string>();
  private resync: ((at: number) => void) | undefined;
  constructor(
    private readonly game: StockGame,
    private readonly ctx: DriverContext,
    private readonly tally: Tally,
  ) {}

  async open() {
    const { base } = this.ctx;
    const { name } = this.game;
    const { matchID } = await postJson<{ matchID: string }>(`${base}/games/${name}/create`, {
      numPlayers: 2,
      setupData: this.game.setupData,
    });
    this.matchID = matchID;
    for (const playerID of ['0', '1']) {
      const { playerCredentials } = await postJson<{ playerCredentials: string }>(
        `${base}/games/${name}/${matchID}/join`,
        { playerID, playerName: `bench ${playerID}` },
      );
      const socket = io(`${base}/${name}`, SOCKET_OPTIONS);
      const seat: (typeof this.seats)[number] = {
        socket,
        playerID,
        credentials: playerCredentials,
      };
      reconnectAfterServerDisconnect(socket, this.tally, this.ctx.reconnectOnServerDisconnect);
      // As the web client: a server shutting down says so, and we come back at once.
      socket.on('restarting', () => socket.disconnect().connect());
      let syncedBefore = false;
      socket.on('connect', () => socket.emit('sync', matchID, playerID, playerCredentials, 2));
      socket.on('disconnect', () => this.synced.delete(playerID));
      socket.on('sync', (_id: string, info: { state: StockState }) => {
        seat.state = info.state;
        this.synced.add(playerID);
        if (syncedBefore) this.resync?.(Date.now());
        syncedBefore = true;
      });
      socket.on('update', (_id: string, state: StockState) => {
        seat.state = state;
      });
      this.seats.push(seat);
    }
    await Promise.all(
      this.seats.map((s) =>
        s.state ? undefined : waitFor(s.socket, ['sync'], () => true, 30_000),
      ),
    );
  }

  async step(): Promise<StepResult> {
    // Each step waits until both seats hold its result, so either seat's state is current.
    const state = this.seats[0]?.state;
    if (!state) throw new Error('stock match: not synced');
    if (state.ctx.gameover !== undefined) return { kind: 'over' };
    const current = this.game.mover(state);
    const mover = this.seats.find((s) => s.playerID === current);
    if (!mover?.state) throw new Error(`stock match: no player to move (${current})`);
    const pick = this.game.pick(mover.state, mover.playerID);
    if (!pick) throw new Error(`stock match: no legal move for player ${mover.playerID}`);
    const stateID = mover.state._stateID;
    const started = performance.now();
    const updated = waitFor(
      mover.socket,
      ['update'],
      (_e, args) => ((args[1] as StockState)._stateID > stateID ? true : undefined),
      this.ctx.stepTimeoutMs,
    );
    const others = this.seats
      .filter((s) => s !== mover)
      .map((s) =>
        waitFor(
          s.socket,
          ['update'],
          (_e, args) => ((args[1] as StockState)._stateID > stateID ? true : undefined),
          this.ctx.stepTimeoutMs,
        ),
      );
    const action = {
      type: 'MAKE_MOVE',
      payload: {
        type: pick.move,
        args: pick.args,
        playerID: mover.playerID,
        credentials: mover.credentials,
      },
    };
    mover.socket.emit('update', action, stateID, this.matchID, mover.playerID);
    // One Promise.all, so that a seat that times out after another did is no unhandled rejection.
    const [rtt] = await Promise.all([updated.then(() => performance.now() - started), ...others]);
    return { kind: 'moved', rtt };
  }

  syncedSockets() {
    return this.synced.size;
  }
  stateKey() {
    return this.seats.reduce((n, s) => n + (s.state?._stateID ?? 0), 0);
  }
  onResync(listener: (at: number) => void) {
    this.resync = listener;
  }
  close() {
    for (const s of this.seats) s.socket.close();
  }
}

interface Frame {
  G: State;
  stateID: number;
}

/** Our lobby (/api) and game service ('/game', packages/protocol). */
export class OurMatch implements MatchDriver {
  private seats: { socket: Socket; seat: Seat; credentials: string; frame?: Frame }[] = [];
  private matchID = '';
  /**
   * The last move sent: the state id it was made on and when it was sent (epoch ms, sub-ms,
   * comparable across the benchmark's processes), so that its arrival elsewhere can be timed.
   */
  lastSent: { from: number; at: number } | undefined;

  /** The match's id, once open. */
  get id(): string {
    return this.matchID;
  }
  private synced = new Set<Seat>();
  private resync: ((at: number) => void) | undefined;
  constructor(
    private readonly ctx: DriverContext,
    private readonly tally: Tally,
  ) {}

  async open() {
    const { base } = this.ctx;
    const created = await postJson<{
      matchID: string;
      credentials: string;
      links: { invite: string };
    }>(`${base}/api/matches`, { name: 'bench US', side: 'US' });
    const invite = decodeURIComponent(created.links.invite.split('#')[1] ?? '');
    const joined = await postJson<{ seat: Seat; credentials: string }>(
      `${base}/api/matches/${created.matchID}/join`,
      { name: 'bench USSR', invite },
    );
    this.matchID = created.matchID;
    const grants = [
      { seat: '0' as Seat, credentials: created.credentials },
      { seat: joined.seat, credentials: joined.credentials },
    ];
    const from = this.ctx.spreadAddresses ? { localAddress: randomLoopback() } : {};
    for (const { seat, credentials } of grants) {
      const socket = io(`${base}/game`, {
        ...SOCKET_OPTIONS,
        ...from,
        query: { matchID: this.matchID },
      });
      const entry: (typeof this.seats)[number] = { socket, seat, credentials };
      reconnectAfterServerDisconnect(socket, this.tally, this.ctx.reconnectOnServerDisconnect);
      // As the web client: a server shutting down says when to come back (its own code).
      socket.on('restarting', (notice: unknown) => returnAfterRestart(socket, notice));
      let syncedBefore = false;
      socket.on('connect', () =>
        socket.emit('sync', { matchID: this.matchID, playerID: seat, credentials }),
      );
      socket.on('disconnect', () => this.synced.delete(seat));
      socket.on('sync', (message: { state: Frame }) => {
        entry.frame = message.state;
        this.synced.add(seat);
        if (syncedBefore) this.resync?.(Date.now());
        syncedBefore = true;
      });
      socket.on('update', (message: UpdateMessage) => {
        if (!entry.frame || message.stateID <= entry.frame.stateID) return;
        const next = applyUpdate(entry.frame, message);
        if (next) entry.frame = next;
        else socket.emit('sync', { matchID: this.matchID, playerID: seat, credentials });
      });
      this.seats.push(entry);
    }
    await Promise.all(
      this.seats.map((s) =>
        s.frame ? undefined : waitFor(s.socket, ['sync'], () => true, 30_000),
      ),
    );
  }

  /** The newest state either seat has seen. */
  private latest(): Frame | undefined {
    const [a, b] = this.seats.map((s) => s.frame);
    if (!a || !b) return a ?? b;
    return a.stateID >= b.stateID ? a : b;
  }

  async step(): Promise<StepResult> {
    const latest = this.latest();
    if (!latest) throw new Error('our match: not synced');
    if (latest.G.result) return { kind: 'over' };
    const seat = latest.G.decision?.seat;
    const mover = this.seats.find((s) => s.seat === seat);
    if (!mover?.frame) throw new Error(`our match: no seat to move (${seat})`);
    if (mover.frame.stateID < latest.stateID) {
      const target = latest.stateID;
      await waitFor(
        mover.socket,
        ['update', 'sync'],
        () => ((mover.frame?.stateID ?? -1) >= target ? true : undefined),
        this.ctx.stepTimeoutMs,
      );
    }
    const pick = randomLegalMove(mover.frame.G, mover.seat);
    if (!pick) throw new Error(`our match: no legal move for seat ${mover.seat}`);
    const stateID = mover.frame.stateID;
    const started = performance.now();
    this.lastSent = { from: stateID, at: performance.timeOrigin + started };
    const outcome = waitFor<StepResult>(
      mover.socket,
      ['update', 'refused'],
      (event, args) => {
        if (event === 'refused')
          return { kind: 'refused', code: String((args[0] as { code: string }).code) };
        return (args[0] as UpdateMessage).stateID > stateID
          ? { kind: 'moved', rtt: performance.now() - started }
          : undefined;
      },
      this.ctx.stepTimeoutMs,
    );
    mover.socket.emit('update', {
      matchID: this.matchID,
      stateID,
      action: {
        type: 'MAKE_MOVE',
        payload: { type: pick.move, args: pick.args, playerID: mover.seat },
      },
    });
    const result = await outcome;
    if (result.kind === 'refused') {
      // The server re-syncs a refused socket; wait for it before the next step.
      await waitFor(mover.socket, ['sync'], () => true, this.ctx.stepTimeoutMs).catch(
        () => undefined,
      );
    }
    return result;
  }

  syncedSockets() {
    return this.synced.size;
  }
  onResync(listener: (at: number) => void) {
    this.resync = listener;
  }
  stateKey() {
    return this.seats.reduce((n, s) => n + (s.frame?.stateID ?? 0), 0);
  }
  close() {
    for (const s of this.seats) s.socket.close();
  }
}
