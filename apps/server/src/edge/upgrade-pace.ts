import type { Duplex } from 'node:stream';

/**
 * How long one turn of the event loop may take while upgrades wait (ms): past it, fewer are
 * let through in the next turn. A move of another match needs a few turns (its message read,
 * the store's answer, the frames written), each of them this long at most during a crowd's join.
 */
const TURN_MS = 6;
/** Upgrades let through in one turn at most, however short the turns. */
export const MOST_PER_TURN = 32;

/**
 * Websocket upgrades let through to socket.io at a pace. A crowd's handshakes (a final's start,
 * every spectator back after a restart) arrive by the thousand, a few hundred read in one turn
 * of the event loop, and each costs ws, engine.io and socket.io about 0.65 ms: run together
 * they held every other socket's messages for up to a second. Queued here in arrival order,
 * they are let through a few per turn (from setImmediate, after the turn's reads), as many as
 * keep the turns under TURN_MS: halved after a longer turn, one more after a shorter one. While
 * any wait, the loop never idles, so the crowd gets in as fast as before.
 */
export class UpgradePace {
  private readonly waiting: { socket: Duplex; pass: () => void }[] = [];
  private next = 0;
  private perTurn = 1;
  private scheduled = false;
  /** When the last turn's upgrades were let through (performance.now()). */
  private lastTurnAt = 0;
  private readonly turn = () => this.letThrough();

  /** Lets `pass` run in a later turn, in arrival order, unless the socket is gone by then. */
  admit(socket: Duplex, pass: () => void): void {
    this.waiting.push({ socket, pass });
    if (this.scheduled) return;
    this.scheduled = true;
    // A turn after an idle loop counts from here, not from the last crowd.
    this.lastTurnAt = performance.now();
    setImmediate(this.turn);
  }

  private letThrough(): void {
    const now = performance.now();
    this.perTurn =
      now - this.lastTurnAt > TURN_MS
        ? Math.max(1, this.perTurn >> 1)
        : Math.min(MOST_PER_TURN, this.perTurn + 1);
    this.lastTurnAt = now;
    let passed = 0;
    while (passed < this.perTurn && this.next < this.waiting.length) {
      const upgrade = this.waiting[this.next];
      this.next += 1;
      if (!upgrade || upgrade.socket.destroyed) continue;
      passed += 1;
      try {
        upgrade.pass();
      } catch {
        // A failed upgrade loses its own socket, not the queue behind it.
        upgrade.socket.destroy();
      }
    }
    if (this.next >= this.waiting.length) {
      this.waiting.length = 0;
      this.next = 0;
      this.scheduled = false;
      return;
    }
    // The array is compacted now and then, not shifted for every upgrade.
    if (this.next >= 1024) {
      this.waiting.splice(0, this.next);
      this.next = 0;
    }
    setImmediate(this.turn);
  }
}
