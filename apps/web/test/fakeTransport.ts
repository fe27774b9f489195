import type { ClientEvent, ServerEvent, Transport } from '../src/match/transport.ts';

/** A transport the test drives: it records what the client sends and plays the server's part. */
export class FakeTransport implements Transport {
  readonly sent: {
    event: ClientEvent;
    payload: unknown;
    /** Whether the client asked for an acknowledgement (`request`) or not (`send`). */
    wantsAck: boolean;
    answer: (ack: unknown) => void;
  }[] = [];
  opened = 0;
  closed = 0;
  private connectListeners: (() => void)[] = [];
  private disconnectListeners: ((willReconnect: boolean) => void)[] = [];
  private reconnectingListeners: (() => void)[] = [];
  private listeners = new Map<ServerEvent, ((payload: unknown) => void)[]>();

  onConnect(listener: () => void): void {
    this.connectListeners.push(listener);
  }
  onDisconnect(listener: (willReconnect: boolean) => void): void {
    this.disconnectListeners.push(listener);
  }
  onReconnecting(listener: () => void): void {
    this.reconnectingListeners.push(listener);
  }
  on(event: ServerEvent, listener: (payload: unknown) => void): void {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
  }
  request(event: ClientEvent, payload: unknown): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.sent.push({
        event,
        payload,
        wantsAck: true,
        answer: (ack) => (ack instanceof Error ? reject(ack) : resolve(ack)),
      });
    });
  }
  send(event: ClientEvent, payload: unknown): void {
    this.sent.push({
      event,
      payload,
      wantsAck: false,
      answer: () => {
        throw new Error(`the client asked for no acknowledgement of this ${event}`);
      },
    });
  }
  open(): void {
    this.opened += 1;
  }
  close(): void {
    this.closed += 1;
  }

  // The server's side.
  connect(): void {
    for (const l of this.connectListeners) l();
  }
  drop(): void {
    for (const l of this.disconnectListeners) l(true);
    for (const l of this.reconnectingListeners) l();
  }
  emit(event: ServerEvent, payload: unknown): void {
    for (const l of this.listeners.get(event) ?? []) l(payload);
  }
  last(event: ClientEvent) {
    const found = this.sent.filter((s) => s.event === event).at(-1);
    if (!found) throw new Error(`the client sent no ${event}`);
    return found;
  }
}
