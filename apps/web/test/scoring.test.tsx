import { indexDeck } from '@iron-curtain/game';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BEAT_MS, FinalScoringShow } from '../src/board/FinalScoringShow.tsx';
import { RulesProvider } from '../src/board/rules.tsx';
import { finishedByFinalScoring, RULES } from './fixtures.ts';

const state = finishedByFinalScoring();
const beats = () => [...document.querySelectorAll('[data-beat]')].map((b) => b.textContent ?? '');

function reducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query.includes('reduce'),
    media: query,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the final scoring show', () => {
  it('plays beat by beat by itself and gives the reason for every point', async () => {
    vi.useFakeTimers();
    reducedMotion(false);
    render(
      <RulesProvider value={RULES}>
        <FinalScoringShow view={state} />
      </RulesProvider>,
    );
    expect(beats()).toHaveLength(1);
    expect(beats()[0]).toContain('Aftermath revealed');
    await act(() => vi.advanceTimersByTimeAsync(BEAT_MS));
    expect(beats()).toHaveLength(2);
    for (let i = 0; i < 100 && !screen.queryByRole('button', { name: 'Play it again' }); i++) {
      await act(() => vi.advanceTimersByTimeAsync(BEAT_MS));
    }
    const all = beats();
    const deck = indexDeck(RULES.deck);
    // Every card on the table that scored is named with who dominates it, and every region's bonus.
    for (const step of state.finalScoring ?? []) {
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

  it('is skippable', () => {
    reducedMotion(false);
    render(
      <RulesProvider value={RULES}>
        <FinalScoringShow view={state} />
      </RulesProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Skip to the result' }));
    expect(screen.queryByRole('region', { name: 'Final scoring, step by step' })).toBeNull();
  });

  it('waits for the player under reduced motion', async () => {
    vi.useFakeTimers();
    reducedMotion(true);
    render(
      <RulesProvider value={RULES}>
        <FinalScoringShow view={state} />
      </RulesProvider>,
    );
    await act(() => vi.advanceTimersByTimeAsync(BEAT_MS * 10));
    expect(beats()).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(beats()).toHaveLength(2);
  });
});
