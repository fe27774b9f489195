import type { LogEntry, MoveName, RulesContext, Seat, State } from '@iron-curtain/game';
import {
  applyUpdate,
  type ClockState,
  type Presence,
  presenceSchema,
  type RefusedMessage,
  refusedMessageSchema,
  type SyncRequest,
  syncMessageSchema,
  type UpdateRequest,
  updateMessageSchema,
} from '@iron-curtain/protocol';
import { MatchChat } from '../chat/chatClient.ts';
import type { Transport } from './transport.ts';

export type Connection = 'connecting' | 'online' | 'reconnecting' | 'offline';

/** Everything the match page renders about the connection and the game; replaced, never mutated. */
export interface GameSnapshot {
  connection: Connection;
  /** True once the server sent this socket its view (after every reconnect). */
  synced: boolean;
  /** The match's deck and variants, sent once with each sync. */
  rules: RulesContext | null;
  /** The seat's view of the state: hidden cards are '?'. */
  view: State | null;
  stateID: number;
  log: LogEntry[];
  /** The entries of the last move seen live (empty after a sync): what just happened. */
  recent: LogEntry[];
  presence: Presence | null;
  /** The match's clock as last sent (a frame or presence), null without one. */
  clock: ClockState | null;
  /** When that clock arrived (ms since the epoch): the running seat's time counts down from it. */
  clockAt: number;
  /** A move was sent and its answer has not arrived yet. */
  pending: boolean;
  /** The last refusal, shown until dismissed or the next accepted move. */
  refusal: RefusedMessage | null;
  /** A refusal that reconnecting cannot fix (unknown match, seat not ours). */
  fatal: RefusedMessage | null;
}

const ACK_TIMEOUT_MS = 10_000;
/** How long a move may go unanswered (no update, refusal or sync) before the page syncs again. */
const MOVE_TIMEOUT_MS = 10_000;
const FATAL_CODES = new Set(['UNKNOWN_MATCH', 'UNAUTHORIZED']);

const initial: GameSnapshot = {
  connection: 'connecting',
  synced: false,
  rules: null,
  view: null,
  stateID: 0,
  log: [],
  recent: [],
  presence: null,
  clock: null,
  clockAt: 0,
  pending: false,
  refusal: null,
  fatal: null,
};

const notUnderstood = (what: string): RefusedMessage => ({
  code: 'BAD_MESSAGE',
  message: `The server sent ${what} this page does not understand.`,
});

/**
 * A thin client of the game service: it syncs a seat (or a spectator) on every
 * connect, applies the server's views, and sends moves with the state id they
 * were chosen on. It holds no rules: the server decides, the engine explains.
 */
export class GameClient {
  private snapshot: GameSnapshot = initial;
  private readonly listeners = new Set<() => void>();
  private started = false;
  /** Runs out when a move sent has had no answer; cleared as soon as nothing is pending. */
  private moveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The match chat, on the same socket. */
  readonly chat: MatchChat;

  constructor(
    private readonly transport: Transport,
    private readonly matchID: string,
    private readonly seat: Seat | null,
    private readonly credentials?: string,
  ) {
    this.chat = new MatchChat(transport, matchID);
    transport.onConnect(() => {
      this.set({ connection: 'online', synced: false });
      void this.sync();
    });
    transport.onDisconnect((willReconnect) =>
      this.set({
        connection: willReconnect ? 'reconnecting' : 'offline',
        synced: false,
        pending: false,
      }),
    );
    transport.onReconnecting(() => {
      if (this.snapshot.connection !== 'offline') this.set({ connection: 'reconnecting' });
    });
    transport.on('sync', (payload) => this.onSync(payload));
    transport.on('update', (payload) => this.onUpdate(payload));
    transport.on('presence', (payload) => {
      const parsed = presenceSchema.safeParse(payload);
      if (!parsed.success) return;
      const clock = parsed.data.clock;
      this.set({
        presence: parsed.data,
        ...(clock === undefined ? {} : { clock, clockAt: Date.now() }),
      });
    });
    transport.on('refused', (payload) => this.onRefused(payload));
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): GameSnapshot => this.snapshot;

  start(): void {
    if (this.started) return;
    this.started = true;
    this.transport.open();
  }

  stop(): void {
    this.started = false;
    this.transport.close();
  }

  dismissRefusal(): void {
    this.set({ refusal: null });
  }

  /**
   * Sends one move for this seat (a confirmed draft of cubes is one placeCubes move); ignored
   * while another is on its way or before the first sync. The move asks for no
   * acknowledgement: its answer is the update (or the refusal) every seat's socket is sent
   * anyway, so an acknowledgement would be one more frame per move.
   */
  makeMove(move: MoveName, args: unknown[]): void {
    const { synced, pending } = this.snapshot;
    if (this.seat === null || !synced || pending) return;
    const request: UpdateRequest = {
      matchID: this.matchID,
      stateID: this.snapshot.stateID,
      action: {
        type: 'MAKE_MOVE',
        payload: { type: move, args, playerID: this.seat } as UpdateRequest['action']['payload'],
      },
    };
    this.set({ pending: true, refusal: null });
    this.transport.send('update', request);
    clearTimeout(this.moveTimer);
    this.moveTimer = setTimeout(() => {
      this.set({
        pending: false,
        refusal: {
          code: 'SERVER_ERROR',
          message: 'The server did not answer the move in time; fetching the current state again.',
        },
      });
      void this.sync();
    }, MOVE_TIMEOUT_MS);
  }

  private async sync(): Promise<void> {
    const request: SyncRequest = {
      matchID: this.matchID,
      playerID: this.seat,
      ...(this.credentials ? { credentials: this.credentials } : {}),
    };
    try {
      this.onAck(await this.transport.request('sync', request, ACK_TIMEOUT_MS));
    } catch {
      // No acknowledgement: the server's 'sync' message (or the next reconnect) decides.
    }
  }

  private onAck(ack: unknown): void {
    if (typeof ack !== 'object' || ack === null || !('ok' in ack)) return;
    if (ack.ok === true) {
      this.set({ pending: false });
      return;
    }
    this.onRefused((ack as { error?: unknown }).error);
  }

  private onSync(payload: unknown): void {
    const parsed = syncMessageSchema.safeParse(payload);
    if (!parsed.success || parsed.data.matchID !== this.matchID) {
      this.set({ refusal: notUnderstood('a state') });
      return;
    }
    const { rules, state, log, presence } = parsed.data;
    this.set({
      synced: true,
      pending: false,
      fatal: null,
      rules,
      view: state.G,
      stateID: state.stateID,
      log,
      recent: [],
      presence,
      clock: state.clock ?? null,
      clockAt: Date.now(),
    });
  }

  private onUpdate(payload: unknown): void {
    const parsed = updateMessageSchema.safeParse(payload);
    if (!parsed.success || parsed.data.matchID !== this.matchID) {
      this.set({ refusal: notUnderstood('an update') });
      return;
    }
    const update = parsed.data;
    const { view, stateID } = this.snapshot;
    // A repeated or older update (after a re-sync) changes nothing.
    if (!view || update.stateID <= stateID) return;
    const next = applyUpdate({ G: view, stateID }, update);
    // An update on a state this page does not hold (one was lost): fetch the whole picture.
    if (!next) {
      void this.sync();
      return;
    }
    this.set({
      view: next.G,
      stateID: next.stateID,
      log: [...this.snapshot.log, ...update.entries],
      recent: update.entries,
      ...(update.clock ? { clock: update.clock, clockAt: Date.now() } : {}),
      pending: false,
    });
  }

  private onRefused(payload: unknown): void {
    const parsed = refusedMessageSchema.safeParse(payload);
    const refusal = parsed.success ? parsed.data : notUnderstood('a refusal');
    const fatal = FATAL_CODES.has(refusal.code) && !this.snapshot.synced;
    this.set({ pending: false, refusal, ...(fatal ? { fatal: refusal } : {}) });
    // Reconnecting cannot fix a refused seat or an unknown match: stop trying.
    if (fatal) this.stop();
  }

  private set(change: Partial<GameSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    if (!this.snapshot.pending) clearTimeout(this.moveTimer);
    for (const listener of this.listeners) listener();
  }
}
