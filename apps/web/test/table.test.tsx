import type { LogEntry, State } from '@iron-curtain/game';
import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FinalScoringShow } from '../src/board/FinalScoringShow.tsx';
import { RulesProvider } from '../src/board/rules.tsx';
import { SidePanels } from '../src/board/SidePanels.tsx';
import { useScoringShow } from '../src/board/scoringShow.ts';
import { playSound, setSoundOn } from '../src/board/sound.ts';
import { soundFor, TableOptions, useTableCues } from '../src/board/TableCues.tsx';
import { Track } from '../src/board/Track.tsx';
import { finishedByFinalScoring, newMatch, RULES } from './fixtures.ts';

/** Media queries answered as on a phone (max-width) and with or without reduced motion. */
function screenLike({ phone, reduce }: { phone: boolean; reduce: boolean }) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: (phone && query.includes('max-width')) || (reduce && query.includes('reduce')),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setSoundOn(false);
});

const panels = [
  { id: 'regions', label: 'Regions', content: <p>the regions</p> },
  { id: 'log', label: 'Log', content: <p>the log</p> },
  { id: 'chat', label: 'Chat', content: <p>the chat</p> },
];

describe('the panels beside the table', () => {
  it('on a desktop shows them as tabs beside the table, the first chosen, every panel mounted', () => {
    screenLike({ phone: false, reduce: false });
    render(<SidePanels panels={panels} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Regions',
      'Log',
      'Chat',
    ]);
    expect(screen.getByRole('tabpanel').textContent).toBe('the regions');
    // The others stay mounted (a chat keeps its lines), hidden until chosen.
    expect(screen.getByText('the chat', { ignore: false }).closest('[hidden]')).not.toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    expect(screen.getByRole('tabpanel').textContent).toBe('the chat');
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
  });

  it('on a phone keeps them a tap away: one tab each, the chosen one opens, Close folds it', () => {
    screenLike({ phone: true, reduce: false });
    render(<SidePanels panels={panels} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Regions',
      'Log',
      'Chat',
    ]);
    expect(screen.queryByText('the chat')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Chat' }));
    expect(screen.getByRole('tabpanel').textContent).toContain('the chat');
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('tabpanel')).toBeNull();
  });
});

/** A panel's received count the test moves by hand, as chat lines arrive. */
function receivedStore() {
  let count: number | null = null;
  const listeners = new Set<() => void>();
  return {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    count: () => count,
    arrive: (now: number) =>
      act(() => {
        count = now;
        for (const listener of listeners) listener();
      }),
  };
}

describe("the chat's unread count", () => {
  it('on a phone: the chat tab counts lines that arrive while another panel or none is shown', () => {
    screenLike({ phone: true, reduce: false });
    const chat = receivedStore();
    render(
      <SidePanels panels={panels.map((p) => (p.id === 'chat' ? { ...p, received: chat } : p))} />,
    );
    const tab = () => screen.getByRole('tab', { name: /^Chat/ });
    // The history is not news.
    chat.arrive(3);
    expect(tab().getAttribute('aria-label')).toBeNull();
    chat.arrive(5);
    expect(tab().getAttribute('aria-label')).toBe('Chat, 2 unread');
    expect(tab().querySelector('.unread-badge')?.textContent).toBe('2');
    fireEvent.click(screen.getByRole('tab', { name: 'Log' }));
    chat.arrive(6);
    expect(screen.getByRole('tab', { name: 'Chat, 3 unread' })).toBeTruthy();
    // Shown: read; what arrives while it is open is read too.
    fireEvent.click(tab());
    expect(tab().getAttribute('aria-label')).toBeNull();
    chat.arrive(7);
    expect(tab().querySelector('.unread-badge')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    chat.arrive(8);
    expect(tab().getAttribute('aria-label')).toBe('Chat, 1 unread');
  });

  it('on a desktop: the chat tab counts lines that arrive while another tab is chosen', () => {
    screenLike({ phone: false, reduce: false });
    const chat = receivedStore();
    render(
      <SidePanels
        initial="chat"
        panels={panels.map((p) => (p.id === 'chat' ? { ...p, received: chat } : p))}
      />,
    );
    const tab = () => screen.getByRole('tab', { name: /^Chat/ });
    chat.arrive(2);
    chat.arrive(3);
    expect(tab().getAttribute('aria-label')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'Log' }));
    chat.arrive(5);
    expect(tab().getAttribute('aria-label')).toBe('Chat, 2 unread');
    fireEvent.click(tab());
    expect(tab().getAttribute('aria-label')).toBeNull();
  });
});

describe('the ideology track', () => {
  it('walks the marker one step at a time to its new place', async () => {
    vi.useFakeTimers();
    screenLike({ phone: false, reduce: false });
    const { container, rerender } = render(<Track marker={0} />);
    const at = () => container.querySelector('.track-step.marker')?.getAttribute('title');
    rerender(<Track marker={3} />);
    expect(at()).toBe('0');
    await act(() => vi.advanceTimersByTimeAsync(250));
    expect(at()).toBe('+1');
    for (let i = 0; i < 4; i++) await act(() => vi.advanceTimersByTimeAsync(250));
    expect(at()).toBe('+3');
  });

  it('jumps at once under reduced motion', () => {
    screenLike({ phone: false, reduce: true });
    const { container, rerender } = render(<Track marker={0} />);
    rerender(<Track marker={-4} />);
    expect(container.querySelector('.track-step.marker')?.getAttribute('title')).toBe('-4');
  });
});

describe('sound', () => {
  it('is off until the player turns it on, and the choice is remembered', () => {
    render(<TableOptions player />);
    const button = screen.getByRole('button', { name: 'Sound: off' });
    expect(button.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Sound: on' })).toBeTruthy();
    expect(localStorage.getItem('iron-curtain:sound')).toBe('on');
  });

  it('synthesises its notes only when on', async () => {
    const started: number[] = [];
    class FakeAudio {
      currentTime = 0;
      destination = {};
      createOscillator() {
        return {
          type: '',
          frequency: { value: 0 },
          connect: (node: unknown) => node,
          start: () => started.push(1),
          stop: () => undefined,
        };
      }
      createGain() {
        const gain = {
          gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
          connect: (node: unknown) => node,
        };
        return gain;
      }
    }
    vi.stubGlobal('AudioContext', FakeAudio);
    playSound('turn');
    expect(started).toHaveLength(0);
    setSoundOn(true);
    playSound('turn');
    await vi.waitFor(() => expect(started.length).toBeGreaterThan(0));
  });

  it('plays the weightiest thing a move did', () => {
    const play: LogEntry = { type: 'play', side: 'US', cardId: 'iran', x: 1, y: 0 };
    const gameOver = { type: 'gameOver' } as LogEntry;
    const scored = { type: 'regionScored' } as LogEntry;
    expect(soundFor([play])).toBe('card');
    expect(soundFor([play, scored])).toBe('scoring');
    expect(soundFor([play, scored, gameOver])).toBe('end');
    expect(soundFor([{ type: 'remove', side: 'US', cardId: 'iran' }])).toBe('cubes');
    expect(soundFor([{ type: 'finishStep', side: 'US' }])).toBeNull();
  });
});

describe('a turn while the tab is hidden', () => {
  it('raises a browser notification if the player allowed it', () => {
    const shown: string[] = [];
    vi.stubGlobal(
      'Notification',
      Object.assign(
        function Notification(title: string) {
          shown.push(title);
        },
        { permission: 'granted' },
      ),
    );
    Object.defineProperty(document, 'hidden', { value: true, configurable: true });
    const view = newMatch();
    const { rerender } = renderHook(({ mine }) => useTableCues(view, '0', [], mine), {
      initialProps: { mine: false },
    });
    expect(shown).toEqual([]);
    rerender({ mine: true });
    expect(shown).toEqual(['● Your turn · Iron Curtain']);
    Object.defineProperty(document, 'hidden', { value: false, configurable: true });
  });
});

/** The show as the table drives it. */
function Show({ view }: { view: State }) {
  const show = useScoringShow(RULES, view);
  return <FinalScoringShow view={view} show={show} />;
}

describe('the final scoring show', () => {
  const state = finishedByFinalScoring();

  it('counts its steps and names the current one', () => {
    screenLike({ phone: false, reduce: true });
    render(
      <RulesProvider value={RULES}>
        <Show view={state} />
      </RulesProvider>,
    );
    const total = state.finalScoring?.length ?? 0;
    expect(total).toBeGreaterThan(1);
    expect(document.querySelector('.scoring-progress')?.textContent).toBe(
      `Step 1 of ${total} · The aftermath pile`,
    );
  });

  it('does not say "Step 1 of 1" when the match ends on the aftermath alone', () => {
    screenLike({ phone: false, reduce: true });
    const aftermathOnly: State = {
      ...state,
      finalScoring: (state.finalScoring ?? []).filter((s) => s.kind === 'aftermath'),
    };
    render(
      <RulesProvider value={RULES}>
        <Show view={aftermathOnly} />
      </RulesProvider>,
    );
    expect(document.querySelector('.scoring-progress')?.textContent).toBe('The aftermath pile');
  });
});
