import { DEFAULT_DECK, HIDDEN_CARD, indexDeck } from '@iron-curtain/game';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HotseatPage } from '../src/hotseat/HotseatPage.tsx';
import { i18n } from '../src/i18n/i18n.ts';
import { RulesPage } from '../src/learn/RulesPage.tsx';
import { TUTORIAL_SETUP, TutorialPage } from '../src/learn/TutorialPage.tsx';
import { POINT_BY_DECISION, pointedElement, TUTORIAL_SCRIPT } from '../src/learn/tutorialScript.ts';
import { seeded } from './fixtures.ts';

const deck = indexDeck(DEFAULT_DECK);

afterEach(() => {
  vi.restoreAllMocks();
});

const handCards = () =>
  [...document.querySelectorAll('section.own-hand [data-card]')].map((e) =>
    e.getAttribute('data-card'),
  );

describe('hot-seat', () => {
  it('hides each hand behind a pass-the-device screen and shows each seat only its own view', () => {
    // The same deal on every run.
    vi.spyOn(Math, 'random').mockImplementation(seeded(5));
    render(<HotseatPage />);
    fireEvent.change(screen.getByLabelText('Name of the US player'), { target: { value: 'Ann' } });
    fireEvent.change(screen.getByLabelText('Name of the USSR player'), {
      target: { value: 'Boris' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Start the game' }));

    // The USSR chooses who goes first: the table stays covered until Boris says he holds the device.
    expect(screen.getByRole('heading', { name: 'Pass the device to Boris (USSR)' })).toBeTruthy();
    expect(document.querySelector('[data-card]')).toBeNull();
    expect(document.activeElement?.textContent).toBe('I am Boris: show my hand');
    fireEvent.click(screen.getByRole('button', { name: 'I am Boris: show my hand' }));
    const borisHand = handCards();
    expect(borisHand).toHaveLength(5);
    expect(borisHand).not.toContain(HIDDEN_CARD);
    expect(document.querySelectorAll('[data-hidden-hand="US"] .card-back')).toHaveLength(5);

    // Boris lets the US go first: the device passes to Ann, who sees her own five cards.
    fireEvent.click(screen.getByRole('button', { name: 'The US goes first' }));
    expect(screen.getByRole('heading', { name: 'Pass the device to Ann (US)' })).toBeTruthy();
    expect(document.querySelector('[data-card]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'I am Ann: show my hand' }));
    const annHand = handCards();
    expect(annHand).toHaveLength(5);
    expect(annHand.some((id) => borisHand.includes(id))).toBe(false);
    // What Boris did is on Ann's screen.
    expect(screen.getByRole('region', { name: 'Just happened' }).textContent).toContain(
      'The USSR chose the US to go first in round 1.',
    );

    // Ann plays one of her own flag's cards: she decides next (Event or Command), no cover.
    const own = [...document.querySelectorAll<HTMLElement>('[data-choice="hand"]')].find(
      (e) => deck.card(e.getAttribute('data-card') as string).flag === 'US',
    );
    expect(own).toBeDefined();
    fireEvent.click(own as HTMLElement);
    fireEvent.click(document.querySelector('[data-choice="cell"]') as HTMLElement);
    expect(screen.getByRole('region', { name: 'Decision' }).getAttribute('data-decision')).toBe(
      'chooseAction',
    );
    expect(handCards()).toHaveLength(4);
  });
});

describe('the tutorial', () => {
  it('starts from the fixed deal, the computer letting the learner go first', async () => {
    render(<TutorialPage />);
    const hint = document.querySelector('[data-hint]') as HTMLElement;
    await waitFor(() => expect(hint.getAttribute('data-hint')).toBe('playCard'), { timeout: 5000 });
    expect(handCards().sort()).toEqual([...(TUTORIAL_SETUP.deal?.['0'] ?? [])].sort());
    // The hint sits beside the table, not above it.
    expect(
      hint.closest('.tutorial-table')?.querySelector('.tutorial-play .match-view'),
    ).toBeTruthy();
    expect(hint.getAttribute('data-coach')).toBe('firstCard');
    expect(hint.textContent).toContain('West Germany');
  });

  it('leads through the scripted opening: following what each hint points at plays it to its end', async () => {
    render(<TutorialPage />);
    const hint = document.querySelector('[data-hint]') as HTMLElement;
    const coached = TUTORIAL_SCRIPT.filter((m) => m.seat === '0' && m.coach).map(
      (m) => m.coach as NonNullable<(typeof m)['coach']>,
    );
    for (const coach of coached) {
      await waitFor(() => expect(hint.getAttribute('data-coach')).toBe(coach.hint), {
        timeout: 5000,
      });
      expect(hint.textContent).toContain(i18n.t(`coach.${coach.hint}`));
      // Click what the hint points at until the hint moves on (a card, then its cell; cubes, then confirm).
      for (let clicks = 0; hint.getAttribute('data-coach') === coach.hint && clicks < 8; clicks++) {
        const pointed = pointedElement(coach.point);
        expect(pointed, `${coach.hint}: nothing to point at`).not.toBeNull();
        fireEvent.click(pointed as Element);
      }
      expect(hint.getAttribute('data-coach')).not.toBe(coach.hint);
    }
    // The script is played out: the learner is on their own, and the hints still point by decision.
    await waitFor(() => expect(hint.textContent).toContain(i18n.t('coach.onYourOwn')), {
      timeout: 5000,
    });
    expect(hint.getAttribute('data-coach')).toBe('decision');
  }, 60_000); // a dozen moves rendered whole, with the computer's pauses: slow on a busy machine

  it('leaves the script when the learner plays another move, and hints by decision', async () => {
    render(<TutorialPage />);
    const hint = document.querySelector('[data-hint]') as HTMLElement;
    await waitFor(() => expect(hint.getAttribute('data-coach')).toBe('firstCard'), {
      timeout: 5000,
    });
    fireEvent.click(document.querySelector('[data-choice="hand"][data-card="france"]') as Element);
    fireEvent.click(document.querySelector('[data-choice="cell"]') as Element);
    expect(hint.getAttribute('data-hint')).toBe('chooseAction');
    expect(hint.getAttribute('data-coach')).toBe('decision');
    expect(hint.textContent).toContain('event');
    // What it points at off the script: the decision's own buttons.
    expect(pointedElement(POINT_BY_DECISION.chooseAction)?.getAttribute('data-choice')).toBe(
      'prompt',
    );
  });

  it('starts again from the same deal', async () => {
    vi.useFakeTimers();
    try {
      render(<TutorialPage />);
      await act(() => vi.advanceTimersByTimeAsync(2000));
      const first = handCards();
      fireEvent.click(screen.getByRole('button', { name: 'Start again' }));
      await act(() => vi.advanceTimersByTimeAsync(2000));
      expect(handCards()).toEqual(first);
    } finally {
      vi.useRealTimers();
    }
  });
  it('names the learner and the computer, not the sides twice', () => {
    render(<TutorialPage />);
    const piles = [...document.querySelectorAll('.player-panel [data-hidden-hand]')]
      .map((hand) => hand.textContent)
      .join(' ');
    expect(piles).toContain('USSR (The computer)');
    expect(piles).not.toContain('USSR (USSR)');
  });
});

describe('the rules page', () => {
  it('lists every card of the deck and marks the reconstructed fields', () => {
    render(<RulesPage />);
    const cards = screen.getByRole('region', { name: 'The cards of this deck' });
    expect(within(cards).getAllByRole('row')).toHaveLength(1 + 19);
    const france = cards.querySelector('[data-card="france"]') as HTMLElement;
    // deck.md: France's command value and event are reconstructed.
    expect(france.querySelectorAll('.recon').length).toBeGreaterThanOrEqual(1);
    expect(france.textContent).toContain('Command 3 on region Europe');
    expect(screen.getByRole('heading', { name: 'About the deck' })).toBeTruthy();
  });

  it('highlights Command reach from the cubes on the table, not around the card just played', () => {
    render(<RulesPage />);
    const example = document.querySelector('[data-example="command"]') as HTMLElement;
    const reachable = [...example.querySelectorAll('[data-reachable="true"]')].map((e) =>
      e.getAttribute('data-card'),
    );
    // USSR cubes lie on Europe and East Germany; West Germany is their neighbour. France and the
    // Vietnam just played touch no USSR cube.
    expect(reachable.sort()).toEqual(['east-germany', 'europe', 'west-germany']);
    const westGermany = example.querySelector('[data-card="west-germany"]') as HTMLElement;
    expect(westGermany.textContent).toContain('Place a cube: costs 2');
    expect(example.querySelector('figcaption')?.textContent).toContain('Vietnam is not among them');
  });

  it('scores the rulebook’s Asia example through the engine: 3 IP to the US', () => {
    render(<RulesPage />);
    const example = document.querySelector('[data-example="scoring"]') as HTMLElement;
    const lines = [...example.querySelectorAll('li')].map((li) => li.textContent);
    expect(lines).toEqual([
      'Pakistan: The US dominates, 1 IP.',
      'Japan: nobody dominates.',
      'Vietnam: nobody dominates.',
      'The US dominates Asia: bonus 2 IP.',
      'Total: US 3, USSR 0.',
      'The marker moves 3 towards the US.',
    ]);
  });
});
