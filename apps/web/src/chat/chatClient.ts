import {
  type ChatLine,
  type ChatPhrase,
  type ChatRequest,
  type ChatSettings,
  type ChatSettingsRequest,
  chatMessageSchema,
  chatTextProblem,
  type RefusedMessage,
  refusedMessageSchema,
} from '@iron-curtain/protocol';
import type { Transport } from '../match/transport.ts';

/** What the chat panel renders; replaced, never mutated. */
export interface ChatSnapshot {
  /** Every line this socket may read, in order. */
  lines: ChatLine[];
  /** null until the server sent the first history (after the sync). */
  settings: ChatSettings | null;
  /** A line or a switch is on its way. */
  sending: boolean;
  /** Why the last thing sent did nothing, until the next one. */
  refusal: RefusedMessage | null;
}

const ACK_TIMEOUT_MS = 10_000;

/**
 * The match chat over the game's own socket: the server sends the history this socket may
 * read after each sync, then each new line; this sends phrases, text and the switches, and
 * keeps the server's refusal (or its own, for a line it can tell is bad) for the panel.
 */
export class MatchChat {
  private snapshot: ChatSnapshot = { lines: [], settings: null, sending: false, refusal: null };
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly transport: Transport,
    private readonly matchID: string,
  ) {
    transport.on('chat', (payload) => this.heard(payload));
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): ChatSnapshot => this.snapshot;

  /** Lines heard so far, null before the first history: the chat's tab counts the new ones. */
  readonly lineCount = (): number | null =>
    this.snapshot.settings ? this.snapshot.lines.length : null;

  sayPhrase(phrase: ChatPhrase): Promise<boolean> {
    return this.send('chat', { matchID: this.matchID, kind: 'phrase', phrase });
  }

  /** Sends a line of free text; true once the server took it. */
  sayText(text: string): Promise<boolean> {
    const problem = chatTextProblem(text);
    if (problem) {
      this.set({ refusal: { code: problem, message: 'refused before sending' } });
      return Promise.resolve(false);
    }
    return this.send('chat', { matchID: this.matchID, kind: 'text', text });
  }

  switchOff(off: boolean): Promise<boolean> {
    return this.send('chatSettings', { matchID: this.matchID, off });
  }

  muteOpponent(muted: boolean): Promise<boolean> {
    return this.send('chatSettings', { matchID: this.matchID, muteOpponent: muted });
  }

  private async send(
    event: 'chat' | 'chatSettings',
    request: ChatRequest | ChatSettingsRequest,
  ): Promise<boolean> {
    this.set({ sending: true, refusal: null });
    try {
      const ack = await this.transport.request(event, request, ACK_TIMEOUT_MS);
      if (typeof ack === 'object' && ack !== null && 'ok' in ack && ack.ok === true) {
        this.set({ sending: false });
        return true;
      }
      const parsed = refusedMessageSchema.safeParse((ack as { error?: unknown } | null)?.error);
      this.set({
        sending: false,
        refusal: parsed.success ? parsed.data : { code: 'BAD_MESSAGE', message: 'no answer' },
      });
    } catch {
      this.set({ sending: false, refusal: { code: 'SERVER_ERROR', message: 'no answer in time' } });
    }
    return false;
  }

  private heard(payload: unknown): void {
    const parsed = chatMessageSchema.safeParse(payload);
    if (!parsed.success || parsed.data.matchID !== this.matchID) return;
    const message = parsed.data;
    if (message.kind === 'history') {
      this.set({ lines: message.lines, settings: message.settings });
      return;
    }
    // A line may arrive twice (sent live while a history that holds it was on its way).
    if (this.snapshot.lines.some((line) => line.id === message.line.id)) return;
    const lines = [...this.snapshot.lines, message.line].sort((a, b) => a.id - b.id);
    this.set({ lines });
  }

  private set(change: Partial<ChatSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) listener();
  }
}
