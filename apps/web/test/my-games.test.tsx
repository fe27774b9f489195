import { DEFAULT_DECK, type LogEntry } from '@iron-curtain/game';
import type { MyGame, MyGameRefused } from '@iron-curtain/protocol';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../src/i18n/i18n.ts';
import { MyGames, orderMyGames } from '../src/lobby/MyGames.tsx';
import { heldSeats, saveSeat, seatStorageKey } from '../src/match/seatStore.ts';

const CREDENTIALS = (n: number) => String(n).repeat(24);
const card = DEFAULT_DECK.cards[0]?.id as string;
const deck = {
  id: DEFAULT_DECK.id,
  version: DEFAULT_DECK.version,
  name: DEFAULT_DECK.name,
  hash: DEFAULT_DECK.hash,
  reconstructed: true,
};
const play: LogEntry = { type: 'play', side: 'USSR', cardId: card, x: 0, y: 1 };

const game = (matchID: string, over: Partial<MyGame>): MyGame => ({
  matchID,
  seat: '0',
  side: 'US',
  status: 'playing',
  opponent: { name: 'Boris', side: 'USSR' },
  turn: 'opponent',
  result: null,
  clock: null,
  deadline: null,
  lastMove: null,
  deck,
  updatedAt: '2026-01-01T10:00:00.000Z',
  ...over,
});

function answerWith(games: (MyGame | MyGameRefused)[]) {
  const calls: { url: string; method: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      return new Response(JSON.stringify({ games, at: '2026-01-01T10:00:00.000Z' }), {
        status: 200,
      });
    }),
  );
  return calls;
}

const hold = (matchID: string, n: number) =>
  saveSeat(
    { matchID, seat: '0', side: 'US', credentials: CREDENTIALS(n) },
    { name: 'Ann', links: { invite: `/join/${matchID}#x`, spectate: `/watch/${matchID}` } },
  );

afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'onLine');
  document.title = '';
});

/** The browser offline: navigator.onLine false and every request failing, as fetch fails then. */
function goOffline() {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      calls.push(url);
      throw new TypeError('Failed to fetch');
    }),
  );
  return calls;
}

describe('the seats this browser holds', () => {
  it('are every stored seat, and nothing else in the storage', () => {
    hold('match-aaaa1', 1);
    hold('match-bbbb2', 2);
    localStorage.setItem('iron-curtain:name', 'Ann');
    localStorage.setItem(seatStorageKey('match-broken'), '{not json');
    localStorage.setItem(seatStorageKey('match-other'), JSON.stringify({ matchID: 'x' }));
    expect(
      heldSeats()
        .map((s) => [s.matchID, s.credentials])
        .sort(),
    ).toEqual([
      ['match-aaaa1', CREDENTIALS(1)],
      ['match-bbbb2', CREDENTIALS(2)],
    ]);
  });
});

describe('My games', () => {
  it('puts the matches waiting for you first, newest first within each group', () => {
    const ordered = orderMyGames([
      game('finished-1', { status: 'finished', turn: null, updatedAt: '2026-01-03T00:00:00Z' }),
      game('theirs-old', { updatedAt: '2026-01-01T00:00:00Z' }),
      { matchID: 'refused-1', seat: '1', error: { code: 'BAD_CREDENTIALS', message: 'no' } },
      game('mine-old', { turn: 'you', updatedAt: '2026-01-01T00:00:00Z' }),
      game('waiting-1', { status: 'waiting', turn: null, opponent: { name: null, side: 'USSR' } }),
      game('mine-new', { turn: 'you', updatedAt: '2026-01-02T00:00:00Z' }),
      game('theirs-new', { updatedAt: '2026-01-02T00:00:00Z' }),
    ]);
    expect(ordered.map((g) => g.matchID)).toEqual([
      'mine-new',
      'mine-old',
      'waiting-1',
      'theirs-new',
      'theirs-old',
      'finished-1',
    ]);
  });

  it('asks once for every held seat in a POST body and lists them, the count in the title', async () => {
    for (const [i, id] of ['match-theirs', 'match-mine1', 'match-mine2', 'match-gone1'].entries()) {
      hold(id, i + 1);
    }
    const calls = answerWith([
      game('match-theirs', {
        lastMove: { seat: '0', side: 'US', entries: [play], at: '2026-01-01T10:00:00Z' },
      }),
      game('match-mine1', {
        turn: 'you',
        opponent: { name: 'Carla', side: 'USSR' },
        clock: { perPlayerMs: 600_000, remainingMs: { '0': 61_000, '1': 300_000 }, running: '0' },
        lastMove: { seat: '1', side: 'USSR', entries: [play], at: '2026-01-01T10:00:00Z' },
      }),
      game('match-mine2', { turn: 'you', opponent: { name: 'Dmitri', side: 'USSR' } }),
      { matchID: 'match-gone1', seat: '0', error: { code: 'NOT_FOUND', message: 'gone' } },
    ]);
    const { unmount } = render(<MyGames />);
    const rows = await screen.findAllByRole('listitem');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ url: '/api/my-games', method: 'POST' });
    const { body } = calls[0] as { body: { seats: { matchID: string; credentials: string }[] } };
    const asked = body.seats;
    expect(asked.map((s) => s.matchID).sort()).toEqual([
      'match-gone1',
      'match-mine1',
      'match-mine2',
      'match-theirs',
    ]);
    expect(asked.find((s) => s.matchID === 'match-mine1')?.credentials).toBe(CREDENTIALS(2));
    expect(calls[0]?.url).not.toContain(CREDENTIALS(2));

    expect(rows.map((r) => r.getAttribute('data-match'))).toEqual([
      'match-mine1',
      'match-mine2',
      'match-theirs',
    ]);
    const [first, , third] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(first).getByText('Your turn')).toBeTruthy();
    expect(within(first).getByText(/You \(US\) against Carla \(USSR\)/)).toBeTruthy();
    expect(within(first).getByRole('timer').textContent).toMatch(
      /Time left: you 1:0\d, Carla 5:00/,
    );
    const cardName = DEFAULT_DECK.cards[0]?.name as string;
    // The deck that names the card loads after the list: the row tells the move once it is here.
    expect(await within(first).findByText(new RegExp(`Last move: .*${cardName}`))).toBeTruthy();
    expect(within(third).getByText('Boris to play')).toBeTruthy();
    expect(within(first).getByRole('link').getAttribute('href')).toBe('/match/match-mine1');
    expect(screen.getByText('2 matches are waiting for you.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('(2) Iron Curtain'));
    unmount();
    expect(document.title).toBe('Iron Curtain');
  });

  it('shows a correspondence match’s time left for the turn, in days and hours', async () => {
    hold('match-corr1', 1);
    answerWith([
      game('match-corr1', {
        turn: 'you',
        clock: {
          perPlayerMs: 3 * 86_400_000,
          remainingMs: { '0': 86_400_000 + 2 * 3_600_000, '1': 3 * 86_400_000 },
          running: '0',
        },
        deadline: '2026-01-02T12:00:00.000Z',
      }),
    ]);
    render(<MyGames />);
    const timer = await screen.findByRole('timer');
    // The deadline beside it, in the reader's own time zone: the local day and time of day.
    const deadline = new Date('2026-01-02T12:00:00.000Z');
    const time = deadline.toLocaleTimeString('en', { hour: 'numeric', minute: '2-digit' });
    expect(timer.textContent).toMatch(/^Time left for this turn: 1 d (1:59|2:00):\d\d, until /);
    expect(timer.textContent).toContain(`Jan ${deadline.getDate()}, ${time}`);
  });

  it('says so in each language', async () => {
    hold('match-mine1', 1);
    answerWith([game('match-mine1', { turn: 'you' })]);
    await setLanguage('de', { remember: false });
    try {
      render(<MyGames />);
      expect(await screen.findByText('Du bist am Zug')).toBeTruthy();
      expect(screen.getByRole('heading').textContent).toBe('Meine Partien');
    } finally {
      await setLanguage('en', { remember: false });
    }
  });

  it('asks nothing and lists nothing without a held seat, offering only to take games over', async () => {
    document.title = '';
    const calls = answerWith([]);
    render(<MyGames />);
    expect(await screen.findByText('Continue games from another device')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'My games' })).toBeNull();
    expect(calls).toHaveLength(0);
    expect(document.title).toBe('');
  });

  it('offline, shows the last list received, marked with its time, rather than nothing', async () => {
    hold('match-mine1', 1);
    hold('match-theirs', 2);
    answerWith([
      game('match-mine1', { turn: 'you' }),
      game('match-theirs', { opponent: { name: 'Carla', side: 'USSR' } }),
    ]);
    const received = Date.now();
    const online = render(<MyGames />);
    await screen.findByText('Your turn');
    online.unmount();

    // The app opened again without a network; one match was handed over in between.
    localStorage.removeItem(seatStorageKey('match-theirs'));
    const calls = goOffline();
    render(<MyGames />);
    const kept = await screen.findByText(/^Offline, as of /);
    expect(calls).toEqual(['/api/my-games']);
    expect(kept.getAttribute('role')).toBe('status');
    const time = new Date(received).toLocaleTimeString('en', {
      hour: 'numeric',
      minute: '2-digit',
    });
    expect(kept.textContent).toContain(time);
    const rows = screen.getAllByRole('listitem');
    expect(rows.map((r) => r.getAttribute('data-match'))).toEqual(['match-mine1']);
    expect(within(rows[0] as HTMLElement).getByText('Your turn')).toBeTruthy();
    // Not an error on top of it: the mark says what holds.
    expect(document.querySelector('.my-games .error')).toBeNull();
  });

  it('back online, asks again at once and drops the offline mark', async () => {
    hold('match-mine1', 1);
    answerWith([game('match-mine1', { turn: 'you' })]);
    const online = render(<MyGames />);
    await screen.findByText('Your turn');
    online.unmount();
    goOffline();
    render(<MyGames />);
    await screen.findByText(/^Offline, as of /);

    Reflect.deleteProperty(navigator, 'onLine');
    const calls = answerWith([game('match-mine1', { turn: 'opponent' })]);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    await screen.findByText('Boris to play');
    expect(calls).toHaveLength(1);
    expect(screen.queryByText(/^Offline, as of /)).toBeNull();
  });

  it('with no list kept, says that refreshing needs the connection', async () => {
    hold('match-mine1', 1);
    goOffline();
    render(<MyGames />);
    expect(
      await screen.findByText(
        'You are offline: this needs the connection. Try again once you are back online.',
      ),
    ).toBeTruthy();
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });

  it('shows the server’s refusal, not the kept list, when the server answers with an error', async () => {
    hold('match-mine1', 1);
    answerWith([game('match-mine1', { turn: 'you' })]);
    const online = render(<MyGames />);
    await screen.findByText('Your turn');
    online.unmount();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 500 })),
    );
    render(<MyGames />);
    expect(await screen.findByText('The server answered with an error: try again.')).toBeTruthy();
    expect(screen.queryByText(/^Offline, as of /)).toBeNull();
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });

  it('ignores a kept list that cannot be read', async () => {
    hold('match-mine1', 1);
    localStorage.setItem('iron-curtain:my-games', '{"receivedAt":"yesterday","answer":{}}');
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    render(<MyGames />);
    expect(
      await screen.findByText('The server cannot be reached. Check your connection.'),
    ).toBeTruthy();
    expect(screen.queryAllByRole('listitem')).toEqual([]);
  });
});
