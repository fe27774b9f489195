import { describe, expect, it } from 'vitest';
import { NOT_PAGES, pageOrShell } from '../src/worker/pages.ts';
import { handlePushes } from '../src/worker/push.ts';

const MATCH = 'Abc123_-xyz';

type Listener = (event: unknown) => void;

/** The push handlers added to a stand-in for the worker's scope, with what they touch recorded. */
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
  handlePushes(self as unknown as ServiceWorkerGlobalScope);
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

describe('the service worker’s notifications', () => {
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

  it('handle pushes and clicks only: the pages are the offline part’s (./pages.ts)', () => {
    expect([...loadWorker().listeners.keys()].sort()).toEqual(['notificationclick', 'push']);
  });
});

describe('the service worker’s pages', () => {
  const SHELL = new Response('the shell kept at install');
  const shell = async () => SHELL;

  it('answers the server’s page whenever the server answers, its refusals too', async () => {
    const page = new Response('the server’s page');
    expect(await pageOrShell(async () => page, shell)).toBe(page);
    const missing = new Response('no such page', { status: 404 });
    expect(await pageOrShell(async () => missing, shell)).toBe(missing);
  });

  it('opens the kept shell offline (no answer, or the network timed out) rather than nothing', async () => {
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    expect(await pageOrShell(offline, shell)).toBe(SHELL);
  });

  it('opens the kept shell when a proxy answers for a server that is down (5xx)', async () => {
    const down = async () => new Response('Bad Gateway', { status: 502 });
    expect(await pageOrShell(down, shell)).toBe(SHELL);
  });

  it('never answers the shell for the server’s own paths or for files', () => {
    const notPage = (path: string) => NOT_PAGES.some((pattern) => pattern.test(path));
    for (const path of ['/api/my-games', '/socket.io/', '/metrics', '/healthz', '/readyz']) {
      expect(notPage(path), path).toBe(true);
    }
    expect(notPage('/sw.js')).toBe(true);
    expect(notPage('/assets/shell-abc.js')).toBe(true);
    for (const path of ['/', '/rules', '/match/Abc123_-xyz', '/join/Abc123_-xyz', '/apiary']) {
      expect(notPage(path), path).toBe(false);
    }
  });
});
