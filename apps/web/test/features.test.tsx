import { DEFAULT_DECK, legalMoves, type MatchRecord, replaySteps } from '@iron-curtain/game';
import type { ClockState, Presence } from '@iron-curtain/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PlayerPanel, type SeatsLive } from '../src/board/PlayerPanel.tsx';
import { RulesProvider } from '../src/board/rules.tsx';
import { ClaimWin } from '../src/features/abandon/ClaimWin.tsx';
import { ClockChoice, clockFromForm } from '../src/features/clock/ClockChoice.tsx';
import { formatClock, SeatClock } from '../src/features/clock/SeatClock.tsx';
import { DeckUploadPage } from '../src/features/decks/DeckUploadPage.tsx';
import { BotDemo } from '../src/features/opponent/BotDemo.tsx';
import { FollowRematch, RematchOffer } from '../src/features/rematch/Rematch.tsx';
import {
  MAX_RECORD_FILE_BYTES,
  ReplayImportPage,
  readRecordFile,
} from '../src/features/replay/ReplayImportPage.tsx';
import { setLanguage } from '../src/i18n/i18n.ts';
import { loadSeat } from '../src/match/seatStore.ts';
import { newMatch, RULES } from './fixtures.ts';

const MATCH = 'match-0001';
const NEXT = 'match-0002';
const CREDENTIALS = 'c'.repeat(24);

type Reply = { status: number; body: unknown };

function mockServer(replies: Record<string, Reply>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const reply = replies[`${method} ${url}`];
      if (!reply) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const presence = (change: Partial<Presence> = {}): Presence => ({
  matchID: MATCH,
  players: {
    '0': { name: 'Ann', connected: true, awayMs: null },
    '1': { name: 'Boris', connected: true, awayMs: null },
  },
  spectators: 0,
  status: 'playing',
  result: null,
  graceMs: 60_000,
  ...change,
});

const file = (text: string, name = 'file.json') =>
  new File([text], name, { type: 'application/json' });

describe('the match clock', () => {
  it('formats minutes and seconds, rounding up', () => {
    expect(formatClock(65_000)).toBe('1:05');
    expect(formatClock(1)).toBe('0:01');
    expect(formatClock(-5)).toBe('0:00');
  });

  it('shows hours past an hour, and the days of a correspondence turn in the page’s words', async () => {
    expect(formatClock(3_600_000 + 65_000)).toBe('1:01:05');
    expect(formatClock(2 * 86_400_000 + 3 * 3_600_000 + 4 * 60_000 + 5_000)).toBe('51:04:05');
    expect(formatClock(2 * 86_400_000 + 3 * 3_600_000, (days) => `${days} d`)).toBe('2 d 3:00:00');
    const clock: ClockState = {
      perPlayerMs: 3 * 86_400_000,
      remainingMs: { '0': 86_400_000 + 1_000, '1': 3 * 86_400_000 },
      running: null,
    };
    const seats = (
      <>
        <SeatClock seat="0" clock={clock} receivedAt={Date.now()} label="" />
        <SeatClock seat="1" clock={clock} receivedAt={Date.now()} label="" />
      </>
    );
    const { unmount } = render(seats);
    const timers = () => screen.getAllByRole('timer').map((timer) => timer.textContent);
    expect(timers()).toEqual(['1 d 0:00:01', '3 d 0:00:00']);
    unmount();
    await setLanguage('fr', { remember: false });
    try {
      render(seats);
      expect(timers()).toEqual(['1 j 0:00:01', '3 j 0:00:00']);
    } finally {
      await setLanguage('en', { remember: false });
    }
  });

  it('tells both seats of a correspondence match in one format, days included, 0 too', () => {
    const clock: ClockState = {
      perPlayerMs: 86_400_000,
      remainingMs: { '0': 86_400_000 - 1_000, '1': 86_400_000 },
      running: null,
    };
    render(
      <>
        <SeatClock seat="0" clock={clock} receivedAt={Date.now()} label="" />
        <SeatClock seat="1" clock={clock} receivedAt={Date.now()} label="" />
      </>,
    );
    expect(screen.getAllByRole('timer').map((timer) => timer.textContent)).toEqual([
      '0 d 23:59:59',
      '1 d 0:00:00',
    ]);
  });

  it('shows when a correspondence turn ends, in the reader’s local date and time, beside the running seat’s clock only', () => {
    const clockAt = Date.parse('2026-03-10T08:00:00.000Z');
    const live = (perPlayerMs: number): SeatsLive => ({
      presence: null,
      clock: { perPlayerMs, remainingMs: { '0': 2 * 3_600_000, '1': perPlayerMs }, running: '0' },
      clockAt,
      stopped: false,
    });
    const names = { '0': 'Ann', '1': 'Boris' } as const;
    const panels = (seatsLive: SeatsLive) => (
      <RulesProvider value={RULES}>
        <PlayerPanel view={newMatch()} seat="0" viewer="0" names={names} live={seatsLive} />
        <PlayerPanel view={newMatch()} seat="1" viewer="0" names={names} live={seatsLive} />
      </RulesProvider>
    );
    const { container, rerender } = render(panels(live(3 * 86_400_000)));
    const ends = new Date(clockAt + 2 * 3_600_000);
    const deadlines = [...container.querySelectorAll('.seat-deadline')];
    expect(deadlines).toHaveLength(1);
    expect(deadlines[0]?.closest('[data-player]')?.getAttribute('data-player')).toBe('0');
    expect(deadlines[0]?.textContent).toMatch(/^Turn ends /);
    expect(deadlines[0]?.textContent).toContain(
      `Mar ${ends.getDate()}, ${ends.toLocaleTimeString('en', { hour: 'numeric', minute: '2-digit' })}`,
    );
    // A live clock of minutes has no date to tell.
    rerender(panels(live(600_000)));
    expect(container.querySelectorAll('.seat-deadline')).toHaveLength(0);
  });

  it('counts the running seat down from when the clock arrived, the other stands', () => {
    vi.useFakeTimers();
    const clock: ClockState = {
      perPlayerMs: 300_000,
      remainingMs: { '0': 65_000, '1': 30_000 },
      running: '0',
    };
    render(
      <>
        <SeatClock seat="0" clock={clock} receivedAt={Date.now()} label="US (Ann): " />
        <SeatClock seat="1" clock={clock} receivedAt={Date.now()} label="USSR (Boris): " />
      </>,
    );
    const timers = () => screen.getAllByRole('timer').map((timer) => timer.textContent);
    expect(timers()).toEqual(['US (Ann): 1:05', 'USSR (Boris): 0:30']);
    act(() => vi.advanceTimersByTime(5_000));
    expect(timers()).toEqual(['US (Ann): 1:00', 'USSR (Boris): 0:30']);
    expect(screen.getAllByRole('timer').map((timer) => timer.dataset.running)).toEqual([
      'true',
      'false',
    ]);
  });
});

describe('the clock a match is created with', () => {
  const chosen = (value: string) => {
    const form = new FormData();
    form.set('clockMinutes', value);
    return clockFromForm(form);
  };

  it('offers minutes per player and days per turn in one choice, and reads back either', () => {
    render(
      <form>
        <ClockChoice />
      </form>,
    );
    const group = screen.getByRole('group', { name: 'Days per turn (correspondence)' });
    expect([...group.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      '1 day per turn',
      '2 days per turn',
      '3 days per turn',
      '5 days per turn',
      '7 days per turn',
    ]);
    expect(chosen('d5')).toEqual({ daysPerTurn: 5 });
    expect(chosen('15')).toEqual({ clockMinutes: 15 });
    expect(chosen('0')).toEqual({});
    // A value the select does not offer asks for no clock rather than one the server refuses.
    expect(chosen('d4')).toEqual({});
  });
});

describe('claiming the win', () => {
  it('is offered once the opponent has been away for the grace period, and sends the claim', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    const calls = mockServer({
      [`POST /api/matches/${MATCH}/claim`]: {
        status: 409,
        body: { error: { code: 'OPPONENT_CONNECTED', message: 'your opponent is connected' } },
      },
    });
    render(
      <ClaimWin
        matchID={MATCH}
        seat="0"
        credentials={CREDENTIALS}
        presence={presence({
          players: {
            '0': { name: 'Ann', connected: true, awayMs: null },
            '1': { name: 'Boris', connected: false, awayMs: 50_000 },
          },
        })}
        presenceAt={Date.now()}
        clock={null}
        clockAt={0}
      />,
    );
    const button = screen.getByRole('button', { name: 'Claim the win' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText(/claim the win in 10 s/)).toBeTruthy();
    act(() => vi.advanceTimersByTime(10_000));
    expect(button.disabled).toBe(false);
    vi.useRealTimers();
    fireEvent.click(button);
    await screen.findByText('Your opponent is connected: there is no win to claim.');
    expect(calls).toEqual([
      {
        method: 'POST',
        url: `/api/matches/${MATCH}/claim`,
        body: { seat: '0', credentials: CREDENTIALS },
      },
    ]);
  });

  it('shows nothing while the opponent is connected', () => {
    const { container } = render(
      <ClaimWin
        matchID={MATCH}
        seat="0"
        credentials={CREDENTIALS}
        presence={presence()}
        presenceAt={Date.now()}
        clock={null}
        clockAt={0}
      />,
    );
    expect(container.textContent).toBe('');
  });
});

describe('the rematch', () => {
  const finished = (rematch: Presence['rematch']) =>
    presence({
      status: 'finished',
      result: { winner: '0', winnerSide: 'US', reason: 'final' },
      rematch,
    });

  it('offers, then follows both players into the new match with sides swapped', async () => {
    const calls = mockServer({
      [`POST /api/matches/${MATCH}/rematch`]: {
        status: 200,
        body: { rematch: { offers: ['0'], matchID: null }, seat: null },
      },
    });
    const { rerender } = render(
      <RematchOffer
        matchID={MATCH}
        seat="0"
        credentials={CREDENTIALS}
        side="US"
        presence={finished({ offers: [], matchID: null })}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Offer a rematch' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toEqual({ seat: '0', credentials: CREDENTIALS });
    rerender(
      <RematchOffer
        matchID={MATCH}
        seat="0"
        credentials={CREDENTIALS}
        side="US"
        presence={finished({ offers: ['0'], matchID: null })}
      />,
    );
    expect(screen.getByText(/waiting for your opponent/)).toBeTruthy();
    rerender(
      <RematchOffer
        matchID={MATCH}
        seat="0"
        credentials={CREDENTIALS}
        side="US"
        presence={finished({ offers: ['0', '1'], matchID: NEXT })}
      />,
    );
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${NEXT}`));
    expect(loadSeat(NEXT)).toMatchObject({ seat: '0', side: 'USSR', credentials: CREDENTIALS });
  });

  it('lets the second player accept', () => {
    render(
      <RematchOffer
        matchID={MATCH}
        seat="1"
        credentials={CREDENTIALS}
        side="USSR"
        presence={finished({ offers: ['0'], matchID: null })}
      />,
    );
    expect(screen.getByText(/Your opponent offers a rematch/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Accept the rematch' })).toBeTruthy();
  });

  it('moves spectators on to the rematch', async () => {
    render(<FollowRematch presence={finished({ offers: ['0', '1'], matchID: NEXT })} />);
    await waitFor(() => expect(window.location.pathname).toBe(`/watch/${NEXT}`));
  });
});

/** A real record: the first legal moves of a seeded deal. */
function shortRecord(): MatchRecord {
  const record: MatchRecord = {
    setupData: { sides: { '0': 'US', '1': 'USSR' } },
    seed: 'replay-test',
    moves: [],
  };
  for (let i = 0; i < 3; i++) {
    const steps = [...replaySteps(record)];
    const last = steps.at(-1);
    const seat = last?.state.decision?.seat;
    if (!last || !seat) break;
    const move = legalMoves(last.rules, last.state, seat)[0];
    if (!move) break;
    record.moves.push({ playerID: seat, move: move.move, args: move.args });
  }
  return record;
}

describe('importing a record file', () => {
  it('lists why a file is not a record', async () => {
    render(<ReplayImportPage />);
    const input = screen.getByLabelText('Record file');
    fireEvent.change(input, { target: { files: [file('{"setupData": {}, "moves": [1]}')] } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('This file is not a match record');
    expect(alert.textContent).toContain('setupData.sides');
    expect(alert.textContent).toContain('moves.0');
    fireEvent.change(input, { target: { files: [file('not json')] } });
    await screen.findByText('This file is not JSON.');
  });

  it('refuses a file over the size limit with the limit in words, without reading it', async () => {
    const read = vi.fn(() => Promise.reject(new Error('the file was read')));
    const huge = Object.defineProperties(file('{}', 'huge.json'), {
      size: { value: MAX_RECORD_FILE_BYTES + 1 },
      text: { value: read },
      arrayBuffer: { value: read },
      stream: { value: read },
    });
    expect(await readRecordFile(huge)).toEqual({ tooLarge: true });
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), { target: { files: [huge] } });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      `This file is larger than ${MAX_RECORD_FILE_BYTES / 1024 / 1024} MB, the most a record file may be.`,
    );
    expect(read).not.toHaveBeenCalled();
    // A file of the limit itself is read.
    const fits = Object.defineProperty(file('{}'), 'size', { value: MAX_RECORD_FILE_BYTES });
    expect(await readRecordFile(fits)).not.toEqual({ tooLarge: true });
  });

  it('replays a valid record move by move', async () => {
    const record = shortRecord();
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify(record))] },
    });
    await screen.findByText('Before the first move');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText(`Move 1 of ${record.moves.length}`)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Last' }));
    expect(screen.getByText(`Move ${record.moves.length} of ${record.moves.length}`)).toBeTruthy();
  });

  it('names the players as the live match does, and by side for a record saved without names', async () => {
    const piles = () =>
      [...document.querySelectorAll('.player-panel [data-hidden-hand]')]
        .map((hand) => hand.textContent)
        .join(' ');
    const named = { ...shortRecord(), names: { '0': 'Ann', '1': 'Boris' } };
    const { unmount } = render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify(named))] },
    });
    await screen.findByText('Before the first move');
    expect(piles()).toContain('US (Ann)');
    expect(piles()).toContain('USSR (Boris)');
    unmount();
    render(<ReplayImportPage />);
    fireEvent.change(screen.getByLabelText('Record file'), {
      target: { files: [file(JSON.stringify(shortRecord()))] },
    });
    await screen.findByText('Before the first move');
    expect(piles()).toContain('US (US player)');
    expect(piles()).not.toContain('US (US)');
  });
});

describe('uploading a deck', () => {
  const deckFile = () => ({
    id: DEFAULT_DECK.id,
    version: '2',
    name: 'Printed cards',
    regions: DEFAULT_DECK.regions,
    starter: DEFAULT_DECK.starter,
    cards: DEFAULT_DECK.cards.map(({ eventText, effects: _, ...card }) => ({
      ...card,
      event: eventText,
    })),
  });

  it('shows each bad field before sending anything', async () => {
    const calls = mockServer({
      'GET /api/decks': { status: 200, body: { decks: [] } },
    });
    render(<DeckUploadPage />);
    const bad = deckFile();
    (bad.cards[1] as { command: number | null }).command = 9;
    fireEvent.change(screen.getByLabelText('Deck file'), {
      target: { files: [file(JSON.stringify(bad))] },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('cards[1].command: command value must be 1 to 4');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('uploads a valid deck and shows the server’s field errors when it refuses', async () => {
    const info = {
      id: DEFAULT_DECK.id,
      version: '2',
      name: 'Printed cards',
      hash: 'a'.repeat(64),
      reconstructed: true,
    };
    const calls = mockServer({
      'GET /api/decks': { status: 200, body: { decks: [info] } },
      'POST /api/decks': { status: 201, body: { deck: info } },
    });
    render(<DeckUploadPage />);
    fireEvent.change(screen.getByLabelText('Deck file'), {
      target: { files: [file(JSON.stringify(deckFile()))] },
    });
    await screen.findByText(/Stored: Printed cards \(version 2\)/);
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ name: 'Printed cards' });
    expect(screen.getByText(/aaaaaaaaaaaa/)).toBeTruthy();

    mockServer({
      'GET /api/decks': { status: 200, body: { decks: [] } },
      'POST /api/decks': {
        status: 400,
        body: {
          error: {
            code: 'BAD_DECK',
            message: 'the deck file has errors',
            issues: [{ path: 'cards[3].name', message: 'refused here' }],
          },
        },
      },
    });
    fireEvent.change(screen.getByLabelText('Deck file'), {
      target: { files: [file(JSON.stringify(deckFile()))] },
    });
    await screen.findByText('refused here', { exact: false });
    expect(screen.getByText('cards[3].name')).toBeTruthy();
  });
});

describe('playing the computer', () => {
  it('a demo match starts and opens for watching; a busy server says so', async () => {
    const calls = mockServer({
      'POST /api/bot-matches': {
        status: 201,
        body: { matchID: MATCH, links: { spectate: `/watch/${MATCH}` } },
      },
    });
    render(<BotDemo />);
    fireEvent.click(screen.getByRole('button', { name: 'Start a demo match' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/watch/${MATCH}`));
    expect(calls[0]?.body).toEqual({ levels: { US: 'hard', USSR: 'hard' } });

    mockServer({
      'POST /api/bot-matches': {
        status: 503,
        body: { error: { code: 'BOTS_BUSY', message: 'the computer players are all busy' } },
      },
    });
    render(<BotDemo />);
    fireEvent.click(
      screen.getAllByRole('button', { name: 'Start a demo match' }).at(-1) as HTMLElement,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('all busy');
  });
});
