import { DEFAULT_DECK, indexDeck, type LogEntry } from '@iron-curtain/game';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CardFace } from '../src/board/CardFace.tsx';
import { MoveLog } from '../src/board/MoveLog.tsx';
import { detectLanguage, i18n, setLanguage } from '../src/i18n/i18n.ts';
import { LanguagePicker } from '../src/i18n/LanguagePicker.tsx';

const deck = indexDeck(DEFAULT_DECK);

afterEach(async () => {
  await act(() => setLanguage('en', { remember: false }));
  vi.unstubAllGlobals();
});

describe('choosing the language', () => {
  it('follows the browser, then the remembered choice', () => {
    vi.stubGlobal('navigator', { languages: ['pl-PL', 'en'], language: 'pl-PL' });
    expect(detectLanguage()).toBe('pl');
    vi.stubGlobal('navigator', { languages: ['ja', 'fr-CA'], language: 'ja' });
    expect(detectLanguage()).toBe('fr');
    vi.stubGlobal('navigator', { languages: ['ja'], language: 'ja' });
    expect(detectLanguage()).toBe('en');
    localStorage.setItem('iron-curtain:language', 'de');
    expect(detectLanguage()).toBe('de');
  });

  it('switches every text at once and remembers the choice', async () => {
    const card = deck.card('east-germany');
    render(
      <>
        <LanguagePicker />
        <CardFace deck={DEFAULT_DECK} card={card} region={deck.region(card.region)} />
      </>,
    );
    expect(screen.getByText('East Germany')).toBeTruthy();
    const picker = screen.getByLabelText('Language') as HTMLSelectElement;
    await act(async () => {
      picker.value = 'fr';
      picker.dispatchEvent(new Event('change', { bubbles: true }));
      // The French texts load on demand.
      await vi.waitFor(() => expect(i18n.language).toBe('fr'));
    });
    expect(screen.getByText('Allemagne de l’Est')).toBeTruthy();
    expect(screen.getByLabelText('Langue')).toBeTruthy();
    expect(document.documentElement.lang).toBe('fr');
    expect(localStorage.getItem('iron-curtain:language')).toBe('fr');
  });
});

describe('the game words', () => {
  it('use the German edition’s swap: more cubes is "kontrolliert", two more is "dominiert"', async () => {
    await act(() => setLanguage('de', { remember: false }));
    const card = deck.card('iran');
    const region = deck.region(card.region);
    const { container, rerender } = render(
      <CardFace deck={DEFAULT_DECK} card={card} region={region} cubes={{ US: 2, USSR: 1 }} />,
    );
    expect(container.querySelector('.cube-status')?.textContent).toBe('USA kontrolliert');
    rerender(
      <CardFace deck={DEFAULT_DECK} card={card} region={region} cubes={{ US: 1, USSR: 3 }} />,
    );
    expect(container.querySelector('.cube-status')?.textContent).toBe('UdSSR dominiert');
  });

  it('render event texts from the parsed effects in each language', async () => {
    const card = deck.card('algeria');
    const { container } = render(
      <CardFace deck={DEFAULT_DECK} card={card} region={deck.region(card.region)} />,
    );
    // The event line, without the mark of a reconstructed field.
    const event = () => container.querySelector('.event-line')?.firstChild?.textContent;
    expect(event()).toBe('Infiltrate 2 on region Africa, at most 1 per card');
    await act(() => setLanguage('pl', { remember: false }));
    expect(event()).toBe('Infiltracja 2 na region Afryka, najwyżej 1 na kartę');
    await act(() => setLanguage('de', { remember: false }));
    expect(event()).toBe('2 auf Region Afrika infiltrieren, höchstens 1 pro Karte');
  });

  it('write log lines from the entries’ fields, a card placed by its neighbours, never by coordinates', async () => {
    const log: LogEntry[] = [
      { type: 'firstPlayer', round: 1, chooser: 'USSR', first: 'US' },
      { type: 'play', side: 'US', cardId: 'west-germany', x: 1, y: 0 },
      { type: 'place', side: 'US', cardId: 'poland', cost: 2, from: null, mode: 'command' },
      { type: 'roundStarted', round: 2 },
      { type: 'move', side: 'USSR', cardId: 'poland', x: 5, y: 5 },
    ];
    const none = { US: 0, USSR: 0 };
    const table = [
      { cardId: 'poland', x: 5, y: 5, cubes: none },
      { cardId: 'west-germany', x: 1, y: 0, cubes: none },
      { cardId: 'east-germany', x: 0, y: 0, cubes: none },
      { cardId: 'hungary', x: 1, y: 1, cubes: none },
    ];
    render(<MoveLog log={log} deck={DEFAULT_DECK} table={table} />);
    const lines = () => [...document.querySelectorAll('.move-log li')].map((li) => li.textContent);
    expect(lines()).toEqual([
      'The USSR chose the US to go first in round 1.',
      'The US played West Germany right of East Germany and above Hungary.',
      'The US placed a cube on Poland, paying 2 for it.',
      'Round 2 begins: each player takes 4 cards from the reserve.',
      // Nothing beside it: the card alone, still no coordinates.
      'The USSR moved Poland.',
    ]);
    await act(() => setLanguage('fr', { remember: false }));
    expect(lines()).toEqual([
      'Le camp URSS fait commencer le camp US à la manche 1.',
      'Le camp US joue Allemagne de l’Ouest à droite de la carte Allemagne de l’Est et au-dessus de la carte Hongrie.',
      'Le camp US place un cube sur Pologne, pour un coût de 2.',
      'La manche 2 commence : chaque joueur prend 4 cartes de la pioche.',
      'Le camp URSS déplace Pologne.',
    ]);
  });
});
