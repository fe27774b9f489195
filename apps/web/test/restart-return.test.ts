import { io } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { readRestartNotice, returnAfterRestart } from '../src/match/restart-return.ts';

describe('the return after a restart notice', () => {
  it('comes back at once when an older server sends no notice, or a broken one', () => {
    for (const payload of [undefined, null, 'soon', { backInMs: -5, spreadMs: 'x' }]) {
      expect(readRestartNotice(payload)).toEqual({ backInMs: 0, spreadMs: 0 });
    }
  });

  it('is not kept away longer than 30 s by a server asking for more', () => {
    expect(readRestartNotice({ backInMs: 3_600_000, spreadMs: 90_000 })).toEqual({
      backInMs: 30_000,
      spreadMs: 30_000,
    });
  });

  it('retries on the notice cadence while away and gets its own backoff back when cancelled', () => {
    const socket = io('http://127.0.0.1:9', {
      autoConnect: false,
      reconnectionDelay: 250,
      reconnectionDelayMax: 4000,
    });
    const cancel = returnAfterRestart(socket, { backInMs: 1000, spreadMs: 1500 }, () => 0.5);
    expect(socket.io.reconnectionDelay()).toBe(1500);
    expect(socket.io.reconnectionDelayMax()).toBe(1500);
    cancel();
    expect(socket.io.reconnectionDelay()).toBe(250);
    expect(socket.io.reconnectionDelayMax()).toBe(4000);
    expect(socket.active).toBe(false);
  });
});
