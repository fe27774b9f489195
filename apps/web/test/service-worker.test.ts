import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

const SCRIPT = fs.readFileSync(path.join(import.meta.dirname, '../public/sw.js'), 'utf8');
const MATCH = 'Abc123_-xyz';

type Listener = (event: unknown) => void;

/** The worker's script run in a scope of its own, with what it touches recorded. */
function loadWorker(windows: { url: string }[] = []) {
  const listeners = new Map<string, Listener>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const focused: string[] = [];
  const opened: string[] = [];
  const self = {
    addEventListener: (type: string, listener: Listener) => listeners.set(type, listener),
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
    },
    clients: {
      matchAll: async () =>
        windows.map((w) => ({
          url: w.url,
          focus: async () => {
            focused.push(w.url);
          },
        })),
      openWindow: async (url: string) => {
        opened.push(url);
      },
    },
  };
  vm.runInNewContext(SCRIPT, { self, URL, encodeURIComponent });
  /** Fires an event and waits for what it handed to waitUntil. */
  const fire = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  const push = (payload: unknown) =>
    fire('push', {
      data: {
        json: () => (typeof payload === 'string' ? JSON.parse(payload) : payload),
      },
    });
  const click = async (data: unknown) => {
    let closed = false;
    await fire('notificationclick', {
      notification: {
        data,
        close: () => {
          closed = true;
        },
      },
    });
    return closed;
  };
  return { listeners, shown, focused, opened, push, click };
}

describe('the service worker', () => {
  it('shows a pushed sentence as a notification tagged with its match, and only that', async () => {
    const worker = loadWorker();
    await worker.push({ matchID: MATCH, text: 'It is your turn in Iron Curtain.' });
    expect(worker.shown).toEqual([
      {
        title: 'Iron Curtain',
        options: {
          body: 'It is your turn in Iron Curtain.',
          tag: MATCH,
          icon: '/icon-192.png',
          data: { matchID: MATCH },
        },
      },
    ]);
  });

  it('shows nothing for a payload that is not ours (no JSON, no match id, a path for an id)', async () => {
    const worker = loadWorker();
    await worker.push('not json {');
    await worker.push({ text: 'no match' });
    await worker.push({ matchID: '../../evil', text: 'x' });
    await worker.push({ matchID: MATCH, text: 42 });
    await worker.push(null);
    expect(worker.shown).toEqual([]);
  });

  it('on a click, focuses the match’s open page rather than opening a second one', async () => {
    const worker = loadWorker([
      { url: 'http://site.test/' },
      { url: `http://site.test/match/${MATCH}` },
    ]);
    expect(await worker.click({ matchID: MATCH })).toBe(true);
    expect(worker.focused).toEqual([`http://site.test/match/${MATCH}`]);
    expect(worker.opened).toEqual([]);
  });

  it('on a click with no page of the match open, opens it', async () => {
    const worker = loadWorker([{ url: 'http://site.test/match/SomeOther1' }]);
    await worker.click({ matchID: MATCH });
    expect(worker.opened).toEqual([`/match/${MATCH}`]);
    await worker.click({ matchID: 'https://evil.example/' });
    expect(worker.opened).toEqual([`/match/${MATCH}`]);
  });

  it('handles nothing but pushes and clicks: no fetch handler, so pages load as without it', () => {
    expect([...loadWorker().listeners.keys()].sort()).toEqual(['notificationclick', 'push']);
  });
});
