import { z } from 'zod/mini';
import { matchIdSchema, seatSchema } from './lobby.ts';
import { plainTextProblem } from './plain-text.ts';

/** Quick phrases: the wire carries the id, each client shows it in its reader's language. */
export const chatPhrases = [
  'goodLuck',
  'wellPlayed',
  'goodGame',
  'thanks',
  'oops',
  'rematch',
] as const;
export type ChatPhrase = (typeof chatPhrases)[number];

/** Longest free text, in characters (code points). */
export const MAX_CHAT_CHARS = 200;

/**
 * The two rooms of a match: the players', and the spectators'. While the match is in play
 * neither reads the other; once it ended, both are open to everyone.
 */
const chatRooms = ['players', 'spectators'] as const;
export type ChatRoom = (typeof chatRooms)[number];

/** client -> server 'chat': a quick phrase or a line of free text in this socket's room. */
export const chatRequestSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    matchID: matchIdSchema,
    kind: z.literal('phrase'),
    phrase: z.enum(chatPhrases),
  }),
  z.strictObject({
    matchID: matchIdSchema,
    kind: z.literal('text'),
    // Only the transport's size cap bounds it here: a long text earns CHAT_TOO_LONG, not a
    // shape error (see chatTextProblem).
    text: z.string(),
  }),
]);
export type ChatRequest = z.infer<typeof chatRequestSchema>;

/**
 * client -> server 'chatSettings': the match's creator (seat 0) turns the chat off or on
 * (`off`); a seat mutes or unmutes its opponent (`muteOpponent`), for all its devices.
 */
export const chatSettingsRequestSchema = z.strictObject({
  matchID: matchIdSchema,
  off: z.optional(z.boolean()),
  muteOpponent: z.optional(z.boolean()),
});
export type ChatSettingsRequest = z.infer<typeof chatSettingsRequestSchema>;

export const chatLineSchema = z.object({
  /** Increasing within a match: the order lines were stored in. */
  id: z.int().check(z.positive()),
  room: z.enum(chatRooms),
  /** The seat that wrote it; null: a spectator. */
  seat: z.nullable(seatSchema),
  /** Exactly one of phrase and text. */
  phrase: z.optional(z.enum(chatPhrases)),
  text: z.optional(z.string().check(z.maxLength(4 * MAX_CHAT_CHARS))),
  at: z.string(),
});
export type ChatLine = z.infer<typeof chatLineSchema>;

/** What one socket's chat looks like: the match's switch, the instance's, its own mute. */
const chatSettingsSchema = z.object({
  /** The creator turned the chat off: nothing new is said in either room. */
  off: z.boolean(),
  /** The server takes free text (its operator may allow quick phrases only). */
  freeText: z.boolean(),
  /** This seat muted its opponent: their lines are not sent to it. */
  mutingOpponent: z.boolean(),
  /** This socket may switch the chat off and on (the match's creator). */
  canSwitch: z.boolean(),
});
export type ChatSettings = z.infer<typeof chatSettingsSchema>;

/**
 * server -> client 'chat': after each sync (and whenever the settings or what this socket may
 * read change) every line it may read with its settings ('history'); then each new line.
 */
export const chatMessageSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('history'),
    matchID: matchIdSchema,
    lines: z.array(chatLineSchema),
    settings: chatSettingsSchema,
  }),
  z.object({ kind: z.literal('line'), matchID: matchIdSchema, line: chatLineSchema }),
]);
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const chatRefusalCodes = [
  'CHAT_TOO_LONG',
  /** Not plain visible text on one line (see plainTextProblem). */
  'CHAT_BAD_TEXT',
  'CHAT_TOO_FAST',
  'CHAT_OFF',
  'CHAT_FREE_TEXT_OFF',
] as const;
export type ChatRefusalCode = (typeof chatRefusalCodes)[number];

/** Why a line of free text cannot be said, or null when it can (both sides check it). */
export function chatTextProblem(text: string): ChatRefusalCode | null {
  if (plainTextProblem(text)) return 'CHAT_BAD_TEXT';
  if ([...text.trim()].length > MAX_CHAT_CHARS) return 'CHAT_TOO_LONG';
  return null;
}
