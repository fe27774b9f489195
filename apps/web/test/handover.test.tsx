import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GiveGames, handoverLink, TakeGames } from '../src/lobby/Handover.tsx';
import { loadSeat, saveSeat } from '../src/match/seatStore.ts';

const { drawn } = vi.hoisted(() => ({ drawn: [] as string[] }));
// jsdom draws no canvas: the test checks what the QR code was asked to hold.
vi.mock('qrcode', () => ({
  toCanvas: async (_canvas: HTMLCanvasElement, text: string) => {
    drawn.push(text);
  },
}));

const CREDENTIALS = 'k'.repeat(24);

function lobbyAnswers(answers: Record<string, { status: number; body: unknown }>) {
  const calls: { url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const answer = answers[url];
      if (!answer) throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  drawn.length = 0;
  window.history.replaceState(null, '', '/');
});

describe('taking games to another device', () => {
  it('shows the code, its link (the code in the fragment) and a QR code of the link', async () => {
    saveSeat(
      { matchID: 'match-give1', seat: '1', side: 'USSR', credentials: CREDENTIALS },
      { name: 'Boris' },
    );
    const calls = lobbyAnswers({
      '/api/handovers': {
        status: 201,
        body: {
          code: 'ABCDE-FGHJK',
          expiresAt: new Date(Date.now() + 600_000).toISOString(),
          seats: 1,
        },
      },
    });
    render(<GiveGames />);
    fireEvent.click(screen.getByRole('button', { name: 'Take my games to another device' }));
    expect(await screen.findByText('ABCDE-FGHJK')).toBeTruthy();
    expect(calls[0]?.body).toEqual({
      seats: [{ matchID: 'match-give1', seat: '1', credentials: CREDENTIALS }],
    });
    const link = handoverLink('ABCDE-FGHJK');
    expect(new URL(link).hash).toBe('#handover=ABCDE-FGHJK');
    expect(new URL(link).pathname + new URL(link).search).toBe('/');
    expect((screen.getByLabelText('Link for the other device') as HTMLInputElement).value).toBe(
      link,
    );
    await waitFor(() => expect(drawn).toEqual([link]));
    expect(screen.getByRole('timer').textContent).toMatch(/Valid for (10:00|9:5\d)/);
  });

  it('takes the seats a link brought, keeps them, and leaves no code in the address bar', async () => {
    window.history.replaceState(null, '', '/#handover=ABCDE-FGHJK');
    const calls = lobbyAnswers({
      '/api/handovers/redeem': {
        status: 200,
        body: {
          seats: [
            {
              matchID: 'match-take1',
              seat: '0',
              side: 'US',
              credentials: CREDENTIALS,
              name: 'Ann',
            },
          ],
        },
      },
    });
    const taken = vi.fn();
    render(<TakeGames onTaken={taken} />);
    const input = screen.getByLabelText('Code') as HTMLInputElement;
    expect(input.value).toBe('ABCDE-FGHJK');
    expect(window.location.hash).toBe('');
    // Nothing is redeemed before the reader asks.
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Take the games' }));
    expect(await screen.findByText('1 game taken over.')).toBeTruthy();
    expect(calls).toEqual([{ url: '/api/handovers/redeem', body: { code: 'ABCDE-FGHJK' } }]);
    expect(loadSeat('match-take1')).toMatchObject({
      seat: '0',
      credentials: CREDENTIALS,
      name: 'Ann',
    });
    expect(taken).toHaveBeenCalledTimes(1);
  });

  it('says why a code was refused, each refusal in its own words, and keeps nothing', async () => {
    const refusals = {
      HANDOVER_UNKNOWN: [404, 'No games are handed over with this code'],
      HANDOVER_USED: [410, 'This code was used already'],
      HANDOVER_EXPIRED: [410, 'This code has expired'],
      HANDOVER_TRIED_OUT: [410, 'This code was typed wrong too often'],
    } as const;
    for (const [code, [status, words]] of Object.entries(refusals)) {
      lobbyAnswers({
        '/api/handovers/redeem': { status, body: { error: { code, message: 'server words' } } },
      });
      const taken = vi.fn();
      const { unmount } = render(<TakeGames onTaken={taken} />);
      fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'WRONG-CODE1-AAAAA' } });
      fireEvent.click(screen.getByRole('button', { name: 'Take the games' }));
      const alert = (await screen.findByRole('alert')).textContent ?? '';
      expect(alert, code).toContain(words);
      expect(alert, code).not.toContain('no such match');
      expect(localStorage.length).toBe(0);
      expect(taken).not.toHaveBeenCalled();
      unmount();
      vi.unstubAllGlobals();
    }
  });
});
