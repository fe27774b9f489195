import type { Seat } from '@iron-curtain/game';
import {
  type ChatLine,
  type ChatMessage,
  type ChatRoom,
  type ChatSettings,
  type ChatSettingsRequest,
  chatRequestSchema,
  chatSettingsRequestSchema,
  chatTextProblem,
  MAX_CHAT_CHARS,
  type RefusedMessage,
  ServerEvents,
} from '@iron-curtain/protocol';
import { type RateLimiterAbstract, RateLimiterMemory } from 'rate-limiter-flexible';
import { clientAddress } from '../edge/connection-limits.ts';
import type { AckFn, GameNamespace, GameSocket } from '../edge/game-sockets.ts';
import { spend } from '../edge/rate-limiters.ts';
import { firstIssue } from '../edge/socket-guard.ts';
import type { Config } from '../ops/config.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { TimeSource } from '../ops/time.ts';
import type { ChatRecord, ChatStore, MatchRecord } from '../storage/index.ts';
import type { Fanout } from './fanout.ts';
import type { ChatSaid, Outcome, RoomView } from './room.ts';

/** Lines one socket may say: CHAT_BURST at once, then one per CHAT_EVERY_S seconds on average. */
const CHAT_BURST = 5;
const CHAT_EVERY_S = 2;

export interface MatchChatDeps {
  nsp: GameNamespace;
  chat: ChatStore;
  metrics: Metrics;
  fanout: Fanout;
  time: TimeSource;
  config: Pick<Config, 'CHAT_FREE_TEXT' | 'TRUST_PROXY'>;
  /**
   * Lines per client address (CHAT_LINES_PER_ADDRESS_PER_MINUTE, across instances with Redis):
   * sockets cost nothing to open, spectators' least of all.
   */
  linesPerAddress?: RateLimiterAbstract | undefined;
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

  constructor(private readonly deps: MatchChatDeps) {}

  /** A chat line as a socket sent it, checked (shape, seating, text); undefined when refused. */
  lineRequest(socket: GameSocket, payload: unknown, ack?: AckFn): ChatSaid | undefined {
    const { refuse, config } = this.deps;
    const parsed = chatRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return undefined;
    }
    const request = parsed.data;
    if (socket.data.seating?.matchID !== request.matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return undefined;
    }
    if (request.kind !== 'text')
      return { matchID: request.matchID, line: { phrase: request.phrase } };
    if (!config.CHAT_FREE_TEXT) {
      refuse(
        socket,
        { code: 'CHAT_FREE_TEXT_OFF', message: 'this server takes quick phrases only' },
        ack,
      );
      return undefined;
    }
    const problem = chatTextProblem(request.text);
    if (problem) {
      const message =
        problem === 'CHAT_TOO_LONG'
          ? `a chat line is at most ${MAX_CHAT_CHARS} characters`
          : 'a chat line is plain visible text on one line: no control characters, separators, markup or piled-up marks';
      refuse(socket, { code: problem, message }, ack);
      return undefined;
    }
    return { matchID: request.matchID, line: { text: request.text.trim() } };
  }

  /**
   * In the room: a socket says a quick phrase or a line of free text in its room. The line is
   * stored; what to tell (the refusal, or the acknowledgement and the line) is returned.
   */
  async say(room: RoomView, socket: GameSocket, said: ChatSaid, ack?: AckFn): Promise<Outcome> {
    const { chat, time, metrics } = this.deps;
    const refused = (error: RefusedMessage): Outcome => ({
      tell: [{ kind: 'answered', socket, error, ack }],
    });
    const seating = socket.data.seating;
    if (seating?.matchID !== room.matchID) {
      return refused({ code: 'NOT_SYNCED', message: 'sync with this match first' });
    }
    const match = await room.match();
    if (!match) return refused({ code: 'UNKNOWN_MATCH', message: 'no such match' });
    if (match.chatOff) {
      return refused({ code: 'CHAT_OFF', message: "the match's creator turned the chat off" });
    }
    if (await this.tooFast(socket)) {
      return refused({ code: 'CHAT_TOO_FAST', message: 'too many chat lines; wait a moment' });
    }
    const line = await chat.addChatLine({
      matchID: match.matchID,
      room: roomOf(seating.seat),
      seat: seating.seat,
      ...said.line,
      at: new Date(time.now()).toISOString(),
    });
    if (!line) return refused({ code: 'UNKNOWN_MATCH', message: 'no such match' });
    metrics.chatLines.inc({ room: line.room });
    return {
      tell: [
        { kind: 'accepted', ack },
        { kind: 'said', match, line: wireLine(line) },
      ],
    };
  }

  /** A line said here: to the room's sockets here that may read it, then to the other instances. */
  told(room: RoomView, match: MatchRecord, line: ChatLine): void {
    this.deliver(room, match, line);
    this.deps.fanout.publish({ kind: 'chat', matchID: match.matchID, line });
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

  /** A settings change as a socket sent it, checked (shape, seating, who may); undefined when refused. */
  settingsRequest(
    socket: GameSocket,
    payload: unknown,
    ack?: AckFn,
  ): ChatSettingsRequest | undefined {
    const { refuse } = this.deps;
    const parsed = chatSettingsRequestSchema.safeParse(payload);
    if (!parsed.success) {
      refuse(socket, { code: 'BAD_MESSAGE', message: firstIssue(parsed.error) }, ack);
      return undefined;
    }
    const { matchID, off, muteOpponent } = parsed.data;
    const seating = socket.data.seating;
    if (seating?.matchID !== matchID) {
      refuse(socket, { code: 'NOT_SYNCED', message: 'sync with this match first' }, ack);
      return undefined;
    }
    if (off !== undefined && seating.seat !== '0') {
      const message = "only the match's creator turns its chat off or on";
      refuse(socket, { code: 'UNAUTHORIZED', message }, ack);
      return undefined;
    }
    if (muteOpponent !== undefined && seating.seat === null) {
      refuse(socket, { code: 'UNAUTHORIZED', message: 'only a seat mutes its opponent' }, ack);
      return undefined;
    }
    return parsed.data;
  }

  /** In the room: the creator turns the chat off or on; a seat mutes or unmutes its opponent. */
  async settle(
    room: RoomView,
    socket: GameSocket,
    request: ChatSettingsRequest,
    ack?: AckFn,
  ): Promise<Outcome> {
    const { chat } = this.deps;
    const { matchID, off, muteOpponent } = request;
    const seat = socket.data.seating?.seat;
    if (socket.data.seating?.matchID !== room.matchID || seat === undefined) {
      const error: RefusedMessage = { code: 'NOT_SYNCED', message: 'sync with this match first' };
      return { tell: [{ kind: 'answered', socket, error, ack }] };
    }
    if (off !== undefined) await chat.setChatOff(matchID, off);
    if (muteOpponent !== undefined && seat !== null) {
      await chat.setMuting(matchID, seat, muteOpponent);
    }
    return { record: null, tell: [{ kind: 'accepted', ack }, { kind: 'chat-settings' }] };
  }

  /** The chat's settings changed here: the room's sockets here, then the other instances. */
  async settingsChanged(room: RoomView, match: MatchRecord | undefined): Promise<void> {
    if (match) await this.sendHistories(room, match);
    this.deps.fanout.publish({ kind: 'chat-settings', matchID: room.matchID });
  }

  /**
   * Sends sockets of one seat (or spectators) every line they may read, with their settings
   * (after a sync): one frame, encoded once for them all.
   */
  async sendHistory(room: RoomView, sockets: GameSocket[], match: MatchRecord): Promise<void> {
    // Each socket's seating as asked: one that syncs again meanwhile is sent its own history.
    const seatings = sockets.map((socket) => socket.data.seating);
    const seating = seatings.find((s) => s !== undefined);
    if (!seating) return;
    const { chat, config, nsp } = this.deps;
    const lines = (await chat.readChat(room.matchID)).filter((line) =>
      mayRead(match, seating.seat, line),
    );
    const settings: ChatSettings = {
      off: match.chatOff === true,
      freeText: config.CHAT_FREE_TEXT,
      mutingOpponent:
        seating.seat !== null && match.players[Number(seating.seat)]?.mutingOpponent === true,
      canSwitch: seating.seat === '0',
    };
    const to = sockets.filter((socket, i) => seatings[i] && socket.data.seating === seatings[i]);
    if (to.length === 0) return;
    for (const socket of to) socket.data.chatOpen = match.status === 'finished';
    const message: ChatMessage = {
      kind: 'history',
      matchID: match.matchID,
      lines: lines.map(wireLine),
      settings,
    };
    nsp.to(to.map((socket) => socket.id)).emit(ServerEvents.chat, message);
  }

  /**
   * The match's presence changed here: once it has ended, the sockets that were sent only
   * their own room are sent both.
   */
  async presenceChanged(room: RoomView, match: MatchRecord): Promise<void> {
    if (match.status !== 'finished') return;
    await this.sendHistories(
      room,
      match,
      [...room.viewers].filter((socket) => !socket.data.chatOpen),
    );
  }

  /** The room's sockets (all, unless given) are sent their history again, each seat's once. */
  async sendHistories(
    room: RoomView,
    match: MatchRecord,
    sockets: GameSocket[] = [...room.viewers],
  ): Promise<void> {
    const bySeat = new Map<Seat | null, GameSocket[]>();
    for (const socket of sockets) {
      const seat = socket.data.seating?.seat;
      if (seat === undefined) continue;
      const seated = bySeat.get(seat);
      if (seated) seated.push(socket);
      else bySeat.set(seat, [socket]);
    }
    for (const seated of bySeat.values()) await this.sendHistory(room, seated, match);
  }

  /** A new line to the room's sockets here that may read it. */
  deliver(room: RoomView, match: MatchRecord, line: ChatLine): void {
    const readers = [...room.viewers]
      .filter((socket) => mayRead(match, socket.data.seating?.seat ?? null, line))
      .map((socket) => socket.id);
    if (readers.length === 0) return;
    const message: ChatMessage = { kind: 'line', matchID: match.matchID, line };
    this.deps.nsp.to(readers).emit(ServerEvents.chat, message);
  }
}
