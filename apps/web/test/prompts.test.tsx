import { legalMoves, type MoveName, type Seat, type State, viewFor } from '@iron-curtain/game';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MatchView } from '../src/board/MatchView.tsx';
import { setLanguage } from '../src/i18n/i18n.ts';
import { newMatch, play, RULES, wireView } from './fixtures.ts';

const names: Record<Seat, string> = { '0': 'Ann', '1': 'Boris' };

function renderFor(state: State, seat: Seat | null, pending = false, connected = true) {
  const onMove = vi.fn<(move: MoveName, args: unknown[]) => void>();
  const view = wireView(state, seat);
  const utils = render(
    <MatchView
      rules={RULES}
      view={view}
      seat={seat}
      names={names}
      log={[]}
      recent={[]}
      pending={pending}
      connected={connected}
      onMove={onMove}
    />,
  );
  return { ...utils, onMove, view };
}

const prompt = () => screen.getByRole('region', { name: 'Decision' });

/** The accessible name of a button, as the browser computes it (through Testing Library). */
function nameOf(button: HTMLElement): string {
  let found = '';
  screen.getByRole('button', {
    name: (name, element) => {
      if (element === button) found = name;
      return element === button;
    },
  });
  return found;
}

/** The words a button shows on screen, each text apart: what only a screen reader reads is left out. */
function shownWords(button: HTMLElement): string[] {
  const words: string[] = [];
  const walker = document.createTreeWalker(button, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('.sr-only')) continue;
    words.push(...(node.textContent ?? '').replace(/\u00ad/g, '').split(/[^\p{L}\p{N}]+/u));
  }
  return words.filter(Boolean);
}
const choiceButtons = (container: HTMLElement) =>
  [...container.querySelectorAll<HTMLButtonElement>('[data-choice]')].filter((b) => !b.disabled);

/** USSR goes first and plays Iran east of Europe; the US declines the event; the USSR commands both cubes onto Iran. */
function afterIranTurn(): State {
  const state = newMatch();
  play(
    state,
    ['1', 'chooseFirstPlayer', 'USSR'],
    ['1', 'playCard', 'iran', { x: 1, y: 0 }],
    ['0', 'decideEvent', false],
    ['1', 'placeCube', 'iran'],
    ['1', 'placeCube', 'iran'],
  );
  return state;
}

describe('choosing the first player', () => {
  it('offers the USSR seat both sides and sends its choice', () => {
    const { onMove } = renderFor(newMatch(), '1');
    expect(prompt().textContent).toContain('Your turn (USSR): choose who goes first in round 1');
    fireEvent.click(screen.getByRole('button', { name: 'The US goes first' }));
    expect(onMove).toHaveBeenCalledWith('chooseFirstPlayer', ['US']);
  });

  it('shows the other seat whose decision it is, with no controls', () => {
    const { container } = renderFor(newMatch(), '0');
    expect(prompt().textContent).toContain('Waiting: the USSR (Boris) must choose who goes first');
    expect(choiceButtons(container)).toHaveLength(0);
  });
});

describe('playing a card', () => {
  it('highlights exactly the legal cells of the chosen card and plays it on a click', () => {
    const state = afterIranTurn();
    const { onMove, container } = renderFor(state, '0');
    // Before a card is chosen, no cell is offered.
    expect(container.querySelectorAll('[data-cell]')).toHaveLength(0);
    fireEvent.click(container.querySelector('[data-choice="hand"][data-card="france"]') as Element);
    const cells = [...container.querySelectorAll('[data-cell]')].map((c) =>
      c.getAttribute('data-cell'),
    );
    expect(cells.sort()).toEqual(['-1,0', '0,-1', '0,1']);
    fireEvent.click(container.querySelector('[data-cell="0,1"]') as Element);
    expect(onMove).toHaveBeenCalledWith('playCard', ['france', { x: 0, y: 1 }]);
  });

  it('names each offered cell by the cards beside it, never by grid coordinates', () => {
    const { container } = renderFor(afterIranTurn(), '0');
    fireEvent.click(container.querySelector('[data-choice="hand"][data-card="france"]') as Element);
    const named = Object.fromEntries(
      [...container.querySelectorAll<HTMLElement>('[data-cell]')].map((c) => [
        c.getAttribute('data-cell'),
        nameOf(c),
      ]),
    );
    // Europe lies at 0,0 with Iran right of it; rows grow downwards.
    expect(named).toEqual({
      '-1,0': 'Play France here left of Europe',
      '0,-1': 'Play France here above Europe',
      '0,1': 'Play France here below Europe',
    });
    expect(container.textContent).not.toMatch(/\(-?\d+, -?\d+\)/);
  });

  it('tells where each card on the table lies by its neighbours, in every language', async () => {
    const { container } = renderFor(afterIranTurn(), '0');
    const iran = container.querySelector('.board-grid [data-card="iran"]') as HTMLElement;
    expect(iran.getAttribute('aria-label')).toBe(
      'Iran, Middle East: US 0, USSR 2, USSR controls. Lies right of Europe',
    );
    expect(container.innerHTML).not.toMatch(/\(-?\d+, -?\d+\)/);
    await act(() => setLanguage('pl', { remember: false }));
    try {
      expect(iran.getAttribute('aria-label')).toMatch(/\. Leży na prawo od karty Europa$/);
    } finally {
      await act(() => setLanguage('en', { remember: false }));
    }
  });

  it('disables every control while a move is on its way', () => {
    const { container } = renderFor(afterIranTurn(), '0', true);
    expect(container.querySelectorAll('[data-choice]').length).toBeGreaterThan(0);
    expect(choiceButtons(container)).toHaveLength(0);
    expect(prompt().textContent).toContain('Sending');
  });

  it('disables every control while the connection is down, and says why', () => {
    const { container } = renderFor(afterIranTurn(), '0', false, false);
    expect(container.querySelectorAll('[data-choice]').length).toBeGreaterThan(0);
    expect(choiceButtons(container)).toHaveLength(0);
    expect(prompt().textContent).toContain('Not connected');
  });
});

describe('event or command', () => {
  it('lets the player of an own-flag card choose Event or Command', () => {
    const state = afterIranTurn();
    play(state, ['0', 'playCard', 'west-germany', { x: -1, y: 0 }]);
    const { onMove } = renderFor(state, '0');
    fireEvent.click(screen.getByRole('button', { name: /Command: place up to 3 cubes/ }));
    expect(onMove).toHaveBeenCalledWith('chooseAction', ['command']);
    fireEvent.click(screen.getByRole('button', { name: /Resolve the event: Infiltrate 2/ }));
    expect(onMove).toHaveBeenLastCalledWith('chooseAction', ['event']);
  });

  it("asks the card's owner to decide on the event when the opponent plays it", () => {
    const state = newMatch();
    play(state, ['1', 'chooseFirstPlayer', 'USSR'], ['1', 'playCard', 'iran', { x: 1, y: 0 }]);
    const { onMove } = renderFor(state, '0');
    expect(prompt().textContent).toContain('The USSR played Iran, which carries your flag');
    fireEvent.click(screen.getByRole('button', { name: 'Decline the event' }));
    expect(onMove).toHaveBeenCalledWith('decideEvent', [false]);
  });
});

describe('placing cubes', () => {
  /** The US Commands 3 with West Germany; the USSR controls Iran (2 cubes to none). */
  function usCommands(): State {
    const state = afterIranTurn();
    play(
      state,
      ['0', 'playCard', 'west-germany', { x: -1, y: 0 }],
      ['0', 'chooseAction', 'command'],
    );
    return state;
  }
  const cubesOf = (container: HTMLElement, id: string) =>
    container.querySelector(`[data-card="${id}"] [data-cubes="US"] .cube-number`)?.textContent;
  const target = (container: HTMLElement, id: string) =>
    container.querySelector(`button.table-card[data-card="${id}"]`) as HTMLButtonElement | null;

  it('marks each target with its cost (2 on a card the opponent controls)', () => {
    const { container } = renderFor(usCommands(), '0');
    expect(prompt().textContent).toContain('Command points left: 3 of 3');
    expect(prompt().textContent).toContain('costs 2 for 1 cube');
    const targets = [...container.querySelectorAll('button.table-card')];
    const note = (id: string) =>
      targets.find((t) => t.getAttribute('data-card') === id)?.querySelector('.card-note')
        ?.textContent;
    expect(targets.map((t) => t.getAttribute('data-card')).sort()).toEqual([
      'europe',
      'iran',
      'west-germany',
    ]);
    expect(note('iran')).toBe('Place a cube: costs 2');
    expect(note('europe')).toBe('Place a cube: costs 1');
  });

  it('names each target card with every word its face shows, in order, then its place', () => {
    const { container } = renderFor(usCommands(), '0');
    for (const id of ['europe', 'iran', 'west-germany']) {
      const button = target(container, id) as HTMLElement;
      const name = nameOf(button);
      const said = name.replace(/\u00ad/g, '');
      let at = 0;
      for (const word of shownWords(button)) {
        const next = said.indexOf(word, at);
        expect(
          next,
          `${id}: "${word}" shown, in order, in the name "${name}"`,
        ).toBeGreaterThanOrEqual(0);
        at = next + word.length;
      }
      expect(name, id).toMatch(/Lies (left of|right of|above|below) [^.]+$/);
    }
    expect(nameOf(target(container, 'iran') as HTMLElement)).toContain('Iran');
  });

  it('drafts cubes on the table, sending nothing, with the cost left as the engine counts it', () => {
    const { onMove, container } = renderFor(usCommands(), '0');
    fireEvent.click(target(container, 'iran') as Element);
    expect(onMove).not.toHaveBeenCalled();
    // 2 points for the first cube on Iran; the USSR's lead is 1 now, so the next costs 1.
    expect(prompt().textContent).toContain('Command points left: 1 of 3');
    expect(cubesOf(container, 'iran')).toBe('1');
    expect(container.querySelector('[data-card="iran"] .draft-badge')?.textContent).toBe('+1');
    expect(nameOf(target(container, 'iran') as HTMLElement)).toContain(
      '1 drafted here, not placed yet',
    );
    expect(target(container, 'iran')?.querySelector('.card-note')?.textContent).toBe(
      'Place a cube: costs 1',
    );
    fireEvent.click(target(container, 'europe') as Element);
    // All spent: no card takes another cube, only the confirm and the take-backs are left.
    expect(prompt().textContent).toContain('All spent');
    expect(container.querySelectorAll('button.table-card')).toHaveLength(0);
    expect(onMove).not.toHaveBeenCalled();
  });

  it('takes drafted cubes back one by one, from a named card or the last one', () => {
    const { container } = renderFor(usCommands(), '0');
    fireEvent.click(target(container, 'europe') as Element);
    fireEvent.click(target(container, 'europe') as Element);
    fireEvent.click(target(container, 'west-germany') as Element);
    expect(prompt().textContent).toContain('Command points left: 0 of 3');
    expect(cubesOf(container, 'europe')).toBe('3');
    fireEvent.click(screen.getByRole('button', { name: 'Take a drafted cube back from Europe' }));
    expect(prompt().textContent).toContain('Command points left: 1 of 3');
    expect(cubesOf(container, 'europe')).toBe('2');
    expect(cubesOf(container, 'west-germany')).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Take back the last cube' }));
    expect(cubesOf(container, 'west-germany')).toBe('0');
    expect(container.querySelector('[data-card="west-germany"] .draft-badge')).toBeNull();
    expect(prompt().textContent).toContain('Command points left: 2 of 3');
  });

  it('sends the drafted cubes in order as one move on one confirm, points left or not', () => {
    const { onMove, container } = renderFor(usCommands(), '0');
    fireEvent.click(target(container, 'iran') as Element);
    fireEvent.click(screen.getByRole('button', { name: 'Place these cubes (1)' }));
    expect(onMove.mock.calls).toEqual([['placeCubes', [[['iran']]]]]);
  });

  it('sends the whole draft as one move when its last cube ends the step, and lets one place none', () => {
    const spent = renderFor(usCommands(), '0');
    fireEvent.click(target(spent.container, 'iran') as Element);
    fireEvent.click(target(spent.container, 'europe') as Element);
    fireEvent.click(screen.getByRole('button', { name: 'Place these cubes (2)' }));
    expect(spent.onMove.mock.calls).toEqual([['placeCubes', [[['iran'], ['europe']]]]]);
    spent.unmount();
    const none = renderFor(usCommands(), '0');
    fireEvent.click(screen.getByRole('button', { name: 'Place no cubes' }));
    expect(none.onMove.mock.calls).toEqual([['finishStep', []]]);
  });

  it('starts an empty draft on a new state', () => {
    const state = usCommands();
    const { container, rerender, onMove } = renderFor(state, '0');
    fireEvent.click(target(container, 'europe') as Element);
    expect(cubesOf(container, 'europe')).toBe('2');
    rerender(
      <MatchView
        rules={RULES}
        view={wireView(state, '0')}
        seat="0"
        names={names}
        log={[]}
        recent={[]}
        pending={false}
        connected
        onMove={onMove}
      />,
    );
    expect(cubesOf(container, 'europe')).toBe('1');
    expect(prompt().textContent).toContain('Command points left: 3 of 3');
  });
});

describe('a hand card pointed at', () => {
  it('shows the cells the engine allows for it, as a preview that plays nothing', () => {
    const state = afterIranTurn();
    const { container, onMove } = renderFor(state, '0');
    const hungary = container.querySelector('.own-hand [data-card="hungary"]') as Element;
    const cells = () =>
      [...container.querySelectorAll('[data-preview-cell]')]
        .map((c) => c.getAttribute('data-preview-cell'))
        .sort();
    expect(cells()).toEqual([]);
    fireEvent.focus(hungary);
    const legal = legalMoves(RULES, viewFor(state, '0'), '0')
      .filter((m) => m.args[0] === 'hungary')
      .map((m) => {
        const cell = m.args[1] as { x: number; y: number };
        return `${cell.x},${cell.y}`;
      })
      .sort();
    expect(cells()).toEqual(legal);
    expect(container.querySelectorAll('[data-preview-cell][data-choice]')).toHaveLength(0);
    fireEvent.blur(hungary);
    expect(cells()).toEqual([]);
    expect(onMove).not.toHaveBeenCalled();
  });
});

describe('event steps', () => {
  it('removes opponent cubes from the highlighted cards', () => {
    const state = afterIranTurn();
    play(state, ['0', 'playCard', 'hungary', { x: -1, y: 0 }], ['1', 'decideEvent', true]);
    const { onMove, container } = renderFor(state, '1');
    expect(prompt().textContent).toContain('Remove up to 2 US cubes');
    fireEvent.click(container.querySelector('button[data-card="europe"]') as Element);
    expect(onMove).toHaveBeenCalledWith('removeCube', ['europe']);
  });

  it('moves a card to a highlighted cell or leaves it', () => {
    const state = afterIranTurn();
    play(
      state,
      ['0', 'playCard', 'france', { x: -1, y: 0 }],
      ['0', 'chooseAction', 'command'],
      ['0', 'finishStep'],
      ['1', 'playCard', 'israel', { x: 2, y: 0 }],
      ['0', 'decideEvent', true],
    );
    expect(state.decision?.kind).toBe('moveCard');
    const { onMove, container } = renderFor(state, '0');
    const cells = [...container.querySelectorAll('[data-cell]')];
    expect(cells.length).toBeGreaterThan(0);
    expect(cells.every((c) => c.textContent?.startsWith('Move here'))).toBe(true);
    // Iran, the card being moved, does not name the cells it leaves.
    expect(cells.every((c) => !c.textContent?.includes('Iran'))).toBe(true);
    const first = cells[0] as Element;
    fireEvent.click(first);
    const [x, y] = (first.getAttribute('data-cell') as string).split(',').map(Number);
    expect(onMove).toHaveBeenCalledWith('moveCard', ['iran', { x, y }]);
    fireEvent.click(screen.getByRole('button', { name: 'Leave Iran where it is' }));
    expect(onMove).toHaveBeenLastCalledWith('finishStep', []);
  });
});

describe('spectators', () => {
  it('see no hand and no controls, only both hands as backs with counts', () => {
    const state = afterIranTurn();
    const { container } = renderFor(state, null);
    expect(screen.queryByRole('region', { name: 'Your hand' })).toBeNull();
    expect(choiceButtons(container)).toHaveLength(0);
    const hidden = [...container.querySelectorAll('[data-hidden-hand]')].map((h) =>
      h.textContent?.trim(),
    );
    expect(hidden).toEqual(['US (Ann): 5 cards in hand', 'USSR (Boris): 4 cards in hand']);
    expect(viewFor(state, null).hands['0']).toEqual(['?', '?', '?', '?', '?']);
    // No card name of a hidden hand appears anywhere.
    expect(container.textContent).not.toContain('West Germany');
  });
});
