import { indexDeck, type Seat, type State } from '@iron-curtain/game';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EndScreen } from '../src/board/EndScreen.tsx';
import { EndStage } from '../src/board/EndStage.tsx';
import { MatchView } from '../src/board/MatchView.tsx';
import { RulesProvider } from '../src/board/rules.tsx';
import { MARKER_BEAT_MS, useScoringShow } from '../src/board/scoringShow.ts';
import { finishedByFinalScoring, RULES } from './fixtures.ts';

const state = finishedByFinalScoring();
const names: Record<Seat, string> = { '0': 'Ann', '1': 'Boris' };
const beats = () => [...document.querySelectorAll('[data-beat]')].map((b) => b.textContent ?? '');

function reducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

/** The result as the table shows it: the show's state drives the end screen. */
function Result({ view }: { view: State }) {
  const show = useScoringShow(RULES, view);
  return (
    <RulesProvider value={RULES}>
      <EndScreen view={view} names={names} show={show} />
      <output data-marker-now>{show.marker}</output>
    </RulesProvider>
  );
}

const heading = () => document.querySelector('.end-screen h2')?.textContent ?? '';
const markerNow = () => Number(document.querySelector('[data-marker-now]')?.textContent);
const steps = state.finalScoring ?? [];
const before = (steps[0]?.marker ?? 0) - (steps[0]?.score.delta ?? 0);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the final scoring show', () => {
  it('plays beat by beat by itself and gives the reason for every point', async () => {
    vi.useFakeTimers();
    reducedMotion(false);
    render(<Result view={state} />);
    expect(beats()).toHaveLength(1);
    expect(beats()[0]).toContain('Aftermath revealed');
    await act(() => vi.advanceTimersByTimeAsync(MARKER_BEAT_MS));
    expect(beats()).toHaveLength(2);
    for (let i = 0; i < 100 && !screen.queryByRole('button', { name: 'Play it again' }); i++) {
      await act(() => vi.advanceTimersByTimeAsync(MARKER_BEAT_MS));
    }
    const all = beats();
    const deck = indexDeck(RULES.deck);
    // Every card on the table that scored is named with who dominates it, and every region's bonus.
    for (const step of steps) {
      if (step.kind !== 'region') continue;
      for (const c of step.score.cards) {
        const name = deck.card(c.cardId).name;
        const line = all.find((b) => b.includes(`${name}:`));
        expect(line).toContain(c.dominatedBy ? `The ${c.dominatedBy} dominates, 1 IP` : 'nobody');
      }
      const region = deck.region(step.score.region).name;
      expect(
        all.some((b) =>
          step.score.bonusTo
            ? b.includes(
                `The ${step.score.bonusTo} dominates ${region}: bonus ${deck.region(step.score.region).bonus} IP`,
              )
            : b.includes(`Nobody dominates ${region}`),
        ),
      ).toBe(true);
    }
    expect(screen.getByRole('button', { name: 'Play it again' })).toBeTruthy();
  });

  it('tells the winner only once it has played, the marker walking step by step', async () => {
    vi.useFakeTimers();
    reducedMotion(false);
    render(<Result view={state} />);
    const winner = `The ${state.result?.winnerSide} (${state.result?.winnerSide === 'US' ? 'Ann' : 'Boris'}) wins`;
    expect(heading()).toBe('Round 2 is over: the final scoring decides');
    expect(document.querySelector('.end-screen')?.textContent).not.toContain('wins');
    // The marker starts where round 2 left it and stands, after each step, where that step put it.
    expect(markerNow()).toBe(before);
    const seen: number[] = [];
    for (let i = 0; i < 100 && !heading().includes('wins'); i++) {
      const step = Number(document.querySelector('.scoring-progress')?.textContent?.match(/\d+/));
      if (beats().at(-1)?.includes('Marker') || beats().at(-1)?.includes('gains')) {
        seen[step - 1] = markerNow();
      }
      await act(() => vi.advanceTimersByTimeAsync(MARKER_BEAT_MS));
    }
    expect(heading()).toContain(winner);
    expect(markerNow()).toBe(state.marker);
    for (const [i, marker] of seen.entries()) {
      if (marker !== undefined) expect(marker).toBe(steps[i]?.marker);
    }
    expect(seen.filter((m) => m !== undefined).length).toBeGreaterThan(1);
  });

  it('is skippable, and a skip jumps to the result', () => {
    reducedMotion(false);
    render(<Result view={state} />);
    expect(heading()).not.toContain('wins');
    fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
    expect(screen.queryByRole('region', { name: 'Final scoring, step by step' })).toBeNull();
    expect(heading()).toContain('wins');
    expect(markerNow()).toBe(state.marker);
  });

  it('brings the result up again once it tells the winner (a skip can leave its box scrolled down)', () => {
    reducedMotion(false);
    // jsdom has no scrollIntoView: the test gives elements one that notes who was scrolled.
    const scrolled: string[] = [];
    Object.defineProperty(HTMLElement.prototype, 'scrollIntoView', {
      configurable: true,
      value(this: HTMLElement) {
        if (this.matches('.end-screen')) scrolled.push(this.dataset.revealed ?? '');
      },
    });
    try {
      render(<Result view={state} />);
      expect(scrolled).toEqual(['false']);
      fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
      expect(scrolled).toEqual(['false', 'true']);
    } finally {
      Reflect.deleteProperty(HTMLElement.prototype, 'scrollIntoView');
    }
  });

  it('waits for the player under reduced motion', async () => {
    vi.useFakeTimers();
    reducedMotion(true);
    render(<Result view={state} />);
    await act(() => vi.advanceTimersByTimeAsync(MARKER_BEAT_MS * 10));
    expect(beats()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(beats()).toHaveLength(2);
    expect(heading()).not.toContain('wins');
  });

  it('keeps the table, the track and the screen reader quiet about the end until then', () => {
    reducedMotion(true);
    const lastEntries = [
      {
        type: 'aftermathRevealed' as const,
        score: (steps[0] as never as { score: never }).score,
        marker: 0,
      },
      {
        type: 'gameOver' as const,
        result: state.result as NonNullable<State['result']>,
        marker: state.marker,
      },
    ];
    render(
      <MatchView
        rules={RULES}
        view={state}
        seat="0"
        names={names}
        log={lastEntries}
        recent={lastEntries}
        pending={false}
        connected
        onMove={() => undefined}
      />,
    );
    const track = () =>
      Number(
        document.querySelector('.match-head .track [aria-current="step"]')?.getAttribute('title'),
      );
    const said = () => document.querySelector('[data-announce]')?.textContent ?? '';
    expect(track()).toBe(before);
    expect(said()).not.toContain('wins');
    expect(document.querySelector('.recent')?.textContent ?? '').not.toMatch(/wins|Aftermath/);
    fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
    expect(track()).toBe(state.marker);
    expect(said()).toContain('wins');
  });
});

describe('a show that begins during a match', () => {
  it('plays when the last move arrives, not only on a finished table', async () => {
    vi.useFakeTimers();
    reducedMotion(false);
    const playing = structuredClone(state);
    playing.result = null;
    playing.finalScoring = null;
    const { rerender } = render(<Result view={playing} />);
    rerender(<Result view={state} />);
    expect(beats()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(MARKER_BEAT_MS));
    expect(beats()).toHaveLength(2);
  });
});

/** A live table's end: a control the player last used, then the stage once the match is over. */
function LiveEnd({ over }: { over: boolean }) {
  const show = useScoringShow(RULES, state);
  return (
    <RulesProvider value={RULES}>
      <button type="button">Last move</button>
      <input aria-label="Message" />
      {over && (
        <EndStage
          view={state}
          names={names}
          show={show}
          ending={{ analysis: <p>The analysis</p> }}
        />
      )}
    </RulesProvider>
  );
}

const focusedText = () => document.activeElement?.textContent ?? '';
const pressEscape = () =>
  fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });

describe('the end on the live table', () => {
  it('takes the keyboard into the final scoring, and back to where it was once the table is shown', () => {
    reducedMotion(true);
    const { rerender } = render(<LiveEnd over={false} />);
    const last = screen.getByRole('button', { name: 'Last move' });
    last.focus();
    rerender(<LiveEnd over />);
    expect(focusedText()).toBe('Round 2 is over: the final scoring decides');
    const stage = screen.getByRole('region', { name: 'Result' });
    expect(stage.getAttribute('data-stage')).toBe('show');
    // Escape skips the show to the banner, whose heading takes the keyboard.
    pressEscape();
    expect(stage.getAttribute('data-stage')).toBe('banner');
    expect(focusedText()).toMatch(/\) wins$/);
    // The analysis over the table: the keyboard in it, Escape back to its button.
    fireEvent.click(screen.getByRole('button', { name: 'Analysis' }));
    const panel = screen.getByRole('dialog', { name: 'Analysis of the match' });
    expect(document.activeElement).toBe(panel);
    pressEscape();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Analysis' }));
    // The table shown: the keyboard back on the control it was on.
    fireEvent.click(screen.getByRole('button', { name: 'Show the table' }));
    expect(stage.getAttribute('data-stage')).toBe('table');
    expect(document.activeElement).toBe(last);
    fireEvent.click(screen.getByRole('button', { name: 'Show the result' }));
    expect(focusedText()).toMatch(/\) wins$/);
  });

  it('leaves an Escape pressed elsewhere to that control; an end that came with nothing focused gives the keyboard to the bar’s button', () => {
    reducedMotion(true);
    const { rerender } = render(<LiveEnd over={false} />);
    rerender(<LiveEnd over />);
    const stage = screen.getByRole('region', { name: 'Result' });
    screen.getByRole('button', { name: 'Last move' }).focus();
    pressEscape();
    expect(stage.getAttribute('data-stage')).toBe('show');
    // The end came with nothing focused: Show the table leaves the keyboard on the bar's button.
    fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
    fireEvent.click(screen.getByRole('button', { name: 'Show the table' }));
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Show the result' }));
  });

  it('leaves the keyboard with a player typing a line of chat when the match ends', () => {
    reducedMotion(true);
    const { rerender } = render(<LiveEnd over={false} />);
    const message = screen.getByRole('textbox', { name: 'Message' });
    message.focus();
    rerender(<LiveEnd over />);
    expect(document.activeElement).toBe(message);
    fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
    expect(document.activeElement).toBe(message);
  });
});
