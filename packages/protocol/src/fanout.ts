// What server instances sharing a store tell each other through Redis: no client sends or
// receives these, so they have an entry of their own ('@iron-curtain/protocol/fanout') and stay
// out of the web client's download.
import type { LogEntry } from '@iron-curtain/game';
import type { Operation } from 'rfc6902';
import { z } from 'zod/mini';
import { type ChatLine, chatLineSchema } from './chat.ts';
import { type ClockState, matchIdSchema } from './lobby.ts';

const count = z.int().check(z.nonnegative());

/** Sockets one instance holds attached to a match: per seat, and spectators. */
export const attendanceSchema = z.object({
  seats: z.object({ '0': count, '1': count }),
  spectators: count,
});
export type Attendance = z.infer<typeof attendanceSchema>;

/** One instance's news about a match, published on the match's channel. */
const fanoutMessageSchema = z.discriminatedUnion('kind', [
  /** A stored state, already cut into what changed in each viewer's view since `from`. */
  z.object({
    kind: z.literal('update'),
    matchID: matchIdSchema,
    from: count,
    stateID: count,
    patches: z.object({
      '0': z.array(z.custom<Operation>()),
      '1': z.array(z.custom<Operation>()),
      spectators: z.array(z.custom<Operation>()),
    }),
    entries: z.array(z.custom<LogEntry>()),
    clock: z.optional(z.custom<ClockState>()),
  }),
  /** Seats, spectators or the match's status changed: re-read and tell the sockets. */
  z.object({ kind: z.literal('presence'), matchID: matchIdSchema }),
  /**
   * The instance's count of spectators of the match changed (shared in its attendance): each
   * instance sums the counts at its next coalesced tell of the crowd, at most once a second.
   */
  z.object({ kind: z.literal('crowd'), matchID: matchIdSchema }),
  /** A stored chat line: each instance sends it to the sockets that may read it. */
  z.object({
    kind: z.literal('chat'),
    matchID: matchIdSchema,
    line: z.custom<ChatLine>((v) => chatLineSchema.safeParse(v).success),
  }),
  /** The match's chat switch or a seat's mute changed: send each socket its chat again. */
  z.object({ kind: z.literal('chat-settings'), matchID: matchIdSchema }),
]);
export type FanoutMessage = z.output<typeof fanoutMessageSchema>;

/** A message as published: with the publishing instance's id, so it can skip its own. */
export const fanoutEnvelopeSchema = z.object({ from: z.string(), message: fanoutMessageSchema });
