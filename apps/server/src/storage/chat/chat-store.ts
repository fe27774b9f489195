import type { Seat } from '@iron-curtain/game';
import type { ChatPhrase, ChatRoom } from '@iron-curtain/protocol';

/** Lines of each chat room a match keeps, the newest: a sync sends no more. */
export const CHAT_LINES_KEPT = 200;

/** One line of a match's chat, as stored. */
export interface ChatRecord {
  /** Increasing in the order lines were stored (across matches; a match's lines sort by it). */
  id: number;
  matchID: string;
  room: ChatRoom;
  /** null: a spectator. */
  seat: Seat | null;
  phrase?: ChatPhrase;
  text?: string;
  at: string;
}

/**
 * A match's chat: its lines, the creator's switch and each seat's mute. The switch and the
 * mutes are read with the match's record (`chatOff`, `mutingOpponent`); lines go with their
 * match when it is removed.
 */
export interface ChatStore {
  /**
   * Appends a line to the match's chat, dropping its room's lines older than the last
   * CHAT_LINES_KEPT; answers it with its id (undefined: no such match).
   */
  addChatLine(line: Omit<ChatRecord, 'id'>): Promise<ChatRecord | undefined>;
  /** The match's chat in order. */
  readChat(matchID: string): Promise<ChatRecord[]>;
  setChatOff(matchID: string, off: boolean): Promise<void>;
  setMuting(matchID: string, seat: Seat, muting: boolean): Promise<void>;
}
