import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PushOptIn } from '../src/features/push/PushOptIn.tsx';
import { setLanguage } from '../src/i18n/i18n.ts';

const CREDENTIALS = 'k'.repeat(24);
const SEAT = { matchID: 'match-push1', seat: '0' as const, credentials: CREDENTIALS };
const SERVER_KEY = Buffer.alloc(65, 4).toString('base64url');
const BROWSER = {
  endpoint: 'https://push.example/send/abc',
  keys: { p256dh: `B${'a'.repeat(86)}`, auth: 'b'.repeat(22) },
};

/** A browser with Web Push: the permission the reader gives, and a push manager that subscribes. */
function browserWithPush(
  permission: NotificationPermission,
  before: NotificationPermission = 'default',
) {
  const asked: string[] = [];
  const notification = Object.assign(function Notification() {}, {
    permission: before,
    requestPermission: async () => {
      asked.push('permission');
      notification.permission = permission;
      return permission;
    },
  });
  const subscription = {
    endpoint: BROWSER.endpoint,
    options: { applicationServerKey: null },
    toJSON: () => BROWSER,
    unsubscribe: async () => true,
  };
  const registration = {
    pushManager: {
      getSubscription: async () => null,
      subscribe: async (options: { applicationServerKey: Uint8Array }) => {
        asked.push(`subscribe ${Buffer.from(options.applicationServerKey).toString('base64url')}`);
        return subscription;
      },
    },
  };
  vi.stubGlobal('Notification', notification);
  vi.stubGlobal('PushManager', function PushManager() {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: {
      register: async (url: string) => {
        asked.push(`register ${url}`);
        return registration;
      },
      ready: Promise.resolve(registration),
      getRegistration: async () => ({
        pushManager: { getSubscription: async () => subscription },
      }),
    },
  });
  return asked;
}

function lobbyAnswers() {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url === '/api/push/key') return Response.json({ publicKey: SERVER_KEY });
      if (init?.method === 'DELETE') return Response.json({ removed: true });
      return Response.json({ matchID: SEAT.matchID, seat: SEAT.seat }, { status: 201 });
    }),
  );
  return calls;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
  await setLanguage('en', { remember: false });
});

describe('the notifications opt-in', () => {
  it('shows nothing in a browser without Web Push', () => {
    const { container } = render(<PushOptIn seats={[SEAT]} />);
    expect(container.innerHTML).toBe('');
  });

  it('asks permission on the click, subscribes with the server key, and registers the seat in the reader’s language', async () => {
    await setLanguage('de', { remember: false });
    const asked = browserWithPush('granted');
    const calls = lobbyAnswers();
    render(<PushOptIn seats={[SEAT]} />);
    fireEvent.click(
      screen.getByRole('button', { name: 'Benachrichtige mich, wenn ich am Zug bin' }),
    );
    await screen.findByText(/Benachrichtigungen sind an/);
    expect(asked).toEqual(['permission', 'register /sw.js', `subscribe ${SERVER_KEY}`]);
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', '/api/push/key', undefined],
      ['POST', '/api/push/subscriptions', { ...SEAT, language: 'de', subscription: BROWSER }],
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Ausschalten' }));
    await screen.findByRole('button', { name: 'Benachrichtige mich, wenn ich am Zug bin' });
    expect(calls.at(-1)).toEqual({
      url: '/api/push/subscriptions',
      method: 'DELETE',
      body: { ...SEAT, endpoint: BROWSER.endpoint },
    });
  });

  it('sends nothing when the reader refuses, and says where to allow it', async () => {
    const asked = browserWithPush('denied');
    const calls = lobbyAnswers();
    render(<PushOptIn seats={[SEAT]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Notify me when it is my turn' }));
    await screen.findByText(/blocked for this site/);
    expect(asked).toEqual(['permission']);
    await waitFor(() => expect(calls).toEqual([]));
  });

  it('says nothing of a block before the player asks, and where to allow it once they do', async () => {
    const asked = browserWithPush('denied', 'denied');
    const calls = lobbyAnswers();
    const { container } = render(<PushOptIn seats={[SEAT]} />);
    expect(container.textContent).not.toMatch(/blocked/);
    fireEvent.click(screen.getByRole('button', { name: 'Notify me when it is my turn' }));
    await screen.findByText(/blocked for this site/);
    expect(asked).toEqual(['permission']);
    expect(calls).toEqual([]);
  });

  it('tells the player who closed the browser’s question that nothing changed, and lets them ask again', async () => {
    await setLanguage('pl', { remember: false });
    const asked = browserWithPush('default');
    const calls = lobbyAnswers();
    render(<PushOptIn seats={[SEAT]} />);
    const button = screen.getByRole('button', {
      name: 'Powiadom mnie, gdy będzie mój ruch',
    });
    fireEvent.click(button);
    await screen.findByText(/Zamknięto pytanie przeglądarki/);
    expect(screen.queryByText(/zablokowane/)).toBeNull();
    expect(asked).toEqual(['permission']);
    expect(calls).toEqual([]);
    // Asked again, the feedback goes while the browser asks.
    fireEvent.click(screen.getByRole('button', { name: 'Powiadom mnie, gdy będzie mój ruch' }));
    await waitFor(() => expect(asked).toEqual(['permission', 'permission']));
  });
});
