import type { Seat } from '@iron-curtain/game';
import {
  type ChatLine,
  type ChatMessage,
  type ChatRoom,
  type ChatSettings,
  chatRequestSchema,
  chatSettingsRequestSchema,
  chatTextProblem,
  MAX_CHAT_CHARS,
  type RefusedMessage,
  ServerEvents,
} from '@iron-curtain/protocol';
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from '../edge/connection-limits.ts';
import {
  type AckFn,
  type GameNamespace,
  type GameSocket,
  matchRoom,
} from '../edge/game-sockets.ts';
import { spend } from '../edge/rate-limiters.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Config } from '../ops/config.ts';
import type { Logger } from '../ops/logger.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { TimeSource } from '../ops/time.ts';
import type { ChatRecord, MatchRecord, Store } from '../storage/index.ts';
import type { Fanout, FanoutMessage } from './fanout.ts';

/** Lines one socket may say: CHAT_BURST at once, then one per CHAT_EVERY_S seconds on average. */
const CHAT_BURST = 5;
const CHAT_EVERY_S = 2;

export interface MatchChatDeps {
  nsp: GameNamespace;
  store: Store;
  metrics: Metrics;
  logger: Logger;
  fanout: Fanout;
  time: TimeSource;
  config: Pick<Config, 'CHAT_FREE_TEXT' | 'TRUST_PROXY'>;
  /**
   * Lines per client address (CHAT_LINES_PER_ADDRESS_PER_MINUTE, across instances with Redis):
   * sockets cost nothing to open, spectators' least of all.
   */
  linesPerAddress?: RateLimiterAbstract;
  /** Tells a socket why its chat message did nothing (in its acknowledgement when it asked for one). */
  refuse: (socket: GameSocket, error: RefusedMessage, ack?: AckFn) => void;
}

const roomOf = (seat: Seat | null): ChatRoom => (seat === null ? 'spectators' : 'players');
const opponent = (seat: Seat): Seat => (seat === '0' ? '1' : '0');

/**
 * Who reads a line: while the match is on, only its own room (the players never read the
 * spectators, the spectators never the players); once it ended, everyone reads both. A
 * seat that muted its opponent is never sent the opponent's lines.
 */
function mayRead(match: MatchRecord, seat: Seat | null, line: ChatRecord | ChatLine): boolean {
  if (line.room !== roomOf(seat) && match.status !== 'finished') return false;
  if (seat === null || line.seat !== opponent(seat)) return true;
  return match.players[Number(seat)]?.mutingOpponent !== true;
}

const wireLine = ({ matchID: _, ...line }: ChatRecord): ChatLine => line;

/**
 * The match chat: the players' room and the spectators' room, quick phrases and free text,
 * the creator's switch and each seat's mute. Lines are stored with the match, so a socket
 * that syncs is sent the history it may read; a new line goes to the sockets that may read
 * it, here and, through the fan-out, on the other instances. Chat frames carry lines and
 * settings only, never anything of the game's state.
 */
export class MatchChat {
  private readonly lines = new RateLimiterMemory({
    keyPrefix: 'chat-lines',
    points: CHAT_BURST,
    duration: CHAT_BURST * CHAT_EVERY_S,
  });

  constructor(private readonly deps: MatchChatDeps) {
    deps.fanout.onMessage((message) => this.heard(message));
  }

  /** A socket says a quick phrase or a line of free text in its room. */
  async say(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const { store, refuse, config, time, metrics, fanout } = this.deps;
    const parsed = chatRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return;
    }
    const request = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== request.matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return;
    }
    let said: Pick<ChatRecord, 'phrase' | 'text'>;
    if (request.kind === 'text') {
      if (!config.CHAT_FREE_TEXT) {
        refuse(
          socket,
          { code: 'CHAT_FREE_TEXT_OFF', message: 'this server takes quick phrases only' },
          ack,
        );
        return;
      }
      const problem = chatTextProblem(request.text);
      if (problem) {
        const message =
          problem === 'CHAT_TOO_LONG'
            ? `a chat line is at most ${MAX_CHAT_CHARS} characters`
            : 'a chat line is plain visible text on one line: no control characters, separators, markup or piled-up marks';
        refuse(socket, { code: problem, message }, ack);
        return;
      }
      said = { text: request.text.trim() };
    } else said = { phrase: request.phrase };
    const match = await store.getMatch(request.matchID);
    if (!match) {
      refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
      return;
    }
    if (match.chatOff) {
      refuse(socket, { code: 'CHAT_OFF', message: "the match's creator turned the chat off" }, ack);
      return;
    }
    if (await this.tooFast(socket)) {
      refuse(socket, { code: 'CHAT_TOO_FAST', message: 'too many chat lines; wait a moment' }, ack);
      return;
    }
    const line = await store.addChatLine({
      matchID: match.matchID,
      room: roomOf(seating.seat),
      seat: seating.seat,
      ...said,
      at: new Date(time.now()).toISOString(),
    });
    if (!line) {
      refuse(socket, { code: 'UNKNOWN_MATCH', message: 'no such match' }, ack);
      return;
    }
    metrics.chatLines.inc({ room: line.room });
    ack?.({ ok: true });
    this.deliver(match, wireLine(line));
    fanout.publish({ kind: 'chat', matchID: match.matchID, line: wireLine(line) });
  }

  /** Whether the socket, or its address with all its sockets, has said its share for now. */
  private async tooFast(socket: GameSocket): Promise<boolean> {
    if (await spend(this.lines, socket.id)) return true;
    const { linesPerAddress, config } = this.deps;
    if (!linesPerAddress) return false;
    return (
      (await spend(linesPerAddress, clientAddress(socket.request, config.TRUST_PROXY))) !==
      undefined
    );
  }

  /** The creator turns the chat off or on; a seat mutes or unmutes its opponent. */
  async settle(socket: GameSocket, payload: unknown, ack?: AckFn): Promise<void> {
    const { store, refuse, fanout } = this.deps;
    const parsed = chatSettingsRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return;
    }
    const { matchID, off, muteOpponent } = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return;
    }
    if (off !== undefined && seating.seat !== '0') {
      const message = "only the match's creator turns its chat off or on";
      refuse(socket, { code: 'UNAUTHORIZED', message }, ack);
      return;
    }
    if (muteOpponent !== undefined && seating.seat === null) {
      refuse(socket, { code: 'UNAUTHORIZED', message: 'only a seat mutes its opponent' }, ack);
      return;
    }
    if (off !== undefined) await store.setChatOff(matchID, off);
    if (muteOpponent !== undefined && seating.seat !== null) {
      await store.setMuting(matchID, seating.seat, muteOpponent);
    }
    ack?.({ ok: true });
    await this.sendHistories(matchID);
    fanout.publish({ kind: 'chat-settings', matchID });
  }

  /** Sends a socket every line it may read, with its settings (after each sync). */
  async sendHistory(socket: GameSocket, known?: MatchRecord): Promise<void> {
    const seating = socket.data.seating;
    if (!seating) return;
    const { store, config } = this.deps;
    const match = known ?? (await store.getMatch(seating.matchID));
    if (!match) return;
    const lines = (await store.readChat(match.matchID)).filter((line) =>
      mayRead(match, seating.seat, line),
    );
    const settings: ChatSettings = {
      off: match.chatOff === true,
      freeText: config.CHAT_FREE_TEXT,
      mutingOpponent:
        seating.seat !== null && match.players[Number(seating.seat)]?.mutingOpponent === true,
      canSwitch: seating.seat === '0',
    };
    if (socket.data.seating !== seating) return;
    socket.data.chatOpen = match.status === 'finished';
    const message: ChatMessage = {
      kind: 'history',
      matchID: match.matchID,
      lines: lines.map(wireLine),
      settings,
    };
    socket.emit(ServerEvents.chat, message);
  }

  /**
   * The match's presence changed here: once it has ended, the sockets that were sent only
   * their own room are sent both.
   */
  async presenceChanged(match: MatchRecord): Promise<void> {
    if (match.status !== 'finished') return;
    const closed = this.socketsOf(match.matchID).filter((socket) => !socket.data.chatOpen);
    for (const socket of closed) await this.sendHistory(socket, match);
  }

  private socketsOf(matchID: string): GameSocket[] {
    const { nsp } = this.deps;
    const sockets: GameSocket[] = [];
    for (const id of nsp.adapter.rooms.get(matchRoom(matchID)) ?? []) {
      const socket = nsp.sockets.get(id);
      if (socket?.data.seating?.matchID === matchID) sockets.push(socket);
    }
    return sockets;
  }

  private async sendHistories(matchID: string): Promise<void> {
    const match = await this.deps.store.getMatch(matchID);
    if (!match) return;
    for (const socket of this.socketsOf(matchID)) await this.sendHistory(socket, match);
  }

  /** A new line to this instance's sockets that may read it. */
  private deliver(match: MatchRecord, line: ChatLine): void {
    const readers = this.socketsOf(match.matchID)
      .filter((socket) => mayRead(match, socket.data.seating?.seat ?? null, line))
      .map((socket) => socket.id);
    if (readers.length === 0) return;
    const message: ChatMessage = { kind: 'line', matchID: match.matchID, line };
    this.deps.nsp.to(readers).emit(ServerEvents.chat, message);
  }

  /** A line or a settings change from another instance. */
  private heard(message: FanoutMessage): void {
    if (message.kind !== 'chat' && message.kind !== 'chat-settings') return;
    const { matchID } = message;
    const { store, logger } = this.deps;
    if (this.socketsOf(matchID).length === 0) return;
    const work =
      message.kind === 'chat'
        ? store.getMatch(matchID).then((match) => match && this.deliver(match, message.line))
        : this.sendHistories(matchID);
    work.catch((error) => logger.error({ err: error, matchID }, 'chat delivery failed'));
  }
}
