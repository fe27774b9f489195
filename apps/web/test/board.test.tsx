import {
  DEFAULT_DECK,
  describeLogEntry,
  indexDeck,
  type Seat,
  type State,
} from '@iron-curtain/game';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CardFace } from '../src/board/CardFace.tsx';
import { MatchView } from '../src/board/MatchView.tsx';
import { Track } from '../src/board/Track.tsx';
import { newMatch, play, playUntil, RULES, seeded, wireView } from './fixtures.ts';

const names: Record<Seat, string> = { '0': 'Ann', '1': 'Boris' };
const deck = indexDeck(DEFAULT_DECK);

function renderView(
  state: State,
  seat: Seat | null,
  log = [] as ReturnType<typeof play>,
  recent = [] as ReturnType<typeof play>,
) {
  return render(
    <MatchView
      rules={RULES}
      view={wireView(state, seat)}
      seat={seat}
      names={names}
      log={log}
      recent={recent}
      pending={false}
      connected
      onMove={vi.fn()}
    />,
  );
}

describe('a card', () => {
  it('shows country, region name and symbol, flag, command value and event, with reconstructed fields marked', () => {
    const card = deck.card('east-germany');
    const { container } = render(
      <CardFace deck={DEFAULT_DECK} card={card} region={deck.region(card.region)} />,
    );
    const text = container.textContent ?? '';
    expect(container.querySelector('.card-name')?.textContent).toBe('East Germany');
    expect(container.querySelector('.card-band')?.textContent).toContain('★Europe');
    expect(container.querySelector('.card-command')?.textContent).toMatch(/^Command value 3/);
    // The steps read as one sentence: never "Gain 1 IP;Infiltrate".
    expect(text).toContain('Gain 1 IP; Infiltrate 2 on any card');
    // deck.md: East Germany's flag and event are confirmed, its command value is reconstructed.
    expect(container.querySelector('.card-value')?.textContent).toContain('(reconstructed)');
    expect(container.querySelector('.card-flag .recon')).toBeNull();
    expect(container.querySelectorAll('.recon')).toHaveLength(1);
    expect(screen.getByRole('img', { name: 'USSR flag' })).toBeTruthy();
  });

  it('on the table shows both sides cubes and who dominates or controls it', () => {
    const card = deck.card('iran');
    const region = deck.region(card.region);
    const { container, rerender } = render(
      <CardFace deck={DEFAULT_DECK} card={card} region={region} cubes={{ US: 1, USSR: 3 }} />,
    );
    const drawn = (side: string) => container.querySelectorAll(`[data-cubes="${side}"] .cube3d`);
    expect(drawn('US')).toHaveLength(1);
    expect(drawn('USSR')).toHaveLength(3);
    expect(container.querySelector('.cubes .sr-only')?.textContent).toBe(
      'US 1, USSR 3, USSR controls',
    );
    // Control is seen without reading: the card's border and tint, and the controller's flag.
    expect(container.querySelector('.card-face')?.classList.contains('control-ussr')).toBe(true);
    expect(
      within(container.querySelector('.control-shield') as HTMLElement)
        .getByRole('img')
        .getAttribute('aria-label'),
    ).toBe('USSR flag');
    rerender(
      <CardFace deck={DEFAULT_DECK} card={card} region={region} cubes={{ US: 2, USSR: 1 }} />,
    );
    expect(container.querySelector('.cube-status')?.textContent).toBe('US dominates');
    expect(container.querySelector('.card-face')?.classList.contains('dominate-us')).toBe(true);
    expect(container.querySelector('.control-shield')).toBeNull();
    rerender(
      <CardFace deck={DEFAULT_DECK} card={card} region={region} cubes={{ US: 1, USSR: 1 }} />,
    );
    expect(container.querySelector('.cube-status')?.textContent).toBe('tied');
    expect(container.querySelector('.card-face.held')).toBeNull();
  });

  it('draws at most four cubes a side and counts the rest', () => {
    const card = deck.card('iran');
    const { container } = render(
      <CardFace
        deck={DEFAULT_DECK}
        card={card}
        region={deck.region(card.region)}
        cubes={{ US: 7, USSR: 0 }}
      />,
    );
    expect(container.querySelectorAll('[data-cubes="US"] .cube3d')).toHaveLength(4);
    expect(container.querySelector('[data-cubes="US"] .cube-number')?.textContent).toBe('7');
  });
});

describe('the track', () => {
  it('puts the marker on its step, positive towards the US', () => {
    const { container } = render(<Track marker={3} />);
    const steps = [...container.querySelectorAll('.track-step')];
    expect(steps).toHaveLength(17);
    expect(steps.findIndex((s) => s.getAttribute('aria-current') === 'step')).toBe(8 + 3);
    expect(container.textContent).toContain('Marker 3 towards the US');
  });
});

describe('the table for a player', () => {
  function midRound() {
    const state = newMatch();
    const log = play(
      state,
      ['1', 'chooseFirstPlayer', 'USSR'],
      ['1', 'playCard', 'iran', { x: 1, y: 0 }],
      ['0', 'decideEvent', false],
      ['1', 'placeCube', 'iran'],
      ['1', 'placeCube', 'iran'],
    );
    return { state, log };
  }

  it('draws every placed card at its cell with its cubes', () => {
    const { state } = midRound();
    const { container } = renderView(state, '0');
    const table = screen.getByRole('region', { name: 'The table' });
    const placed = [...table.querySelectorAll('[data-card]')].map((c) =>
      c.getAttribute('data-card'),
    );
    expect(placed).toEqual(['europe', 'iran']);
    const iran = container.querySelector('[data-card="iran"]') as HTMLElement;
    expect(iran.textContent).toContain('USSR controls');
    const europe = container.querySelector('[data-card="europe"]') as HTMLElement;
    expect(Number.parseInt(iran.style.left, 10)).toBeGreaterThan(
      Number.parseInt(europe.style.left, 10),
    );
    expect(iran.style.top).toBe(europe.style.top);
  });

  it('shows the own hand face up and the opponent hand as backs with a count', () => {
    const { state } = midRound();
    renderView(state, '0');
    const hand = screen.getByRole('region', { name: 'Your hand' });
    expect(hand.querySelectorAll('[data-card]')).toHaveLength(5);
    expect(within(hand).getByText('West Germany')).toBeTruthy();
    const opponent = document.querySelector('[data-hidden-hand="USSR"]') as HTMLElement;
    expect(opponent.textContent).toContain('USSR (Boris): 4 cards in hand');
    expect(opponent.querySelectorAll('.card-back')).toHaveLength(4);
  });

  it("shows each player's panel: side and name, cubes in supply, cards in hand, aftermath card, the seat to move", () => {
    const { state } = midRound();
    renderView(state, '1');
    const panel = (name: string) => screen.getByRole('region', { name });
    const count = (region: HTMLElement, what: string) =>
      region.querySelector(`[data-count="${what}"] .count`)?.textContent;
    const us = panel('US: Ann');
    const ussr = panel('USSR: Boris');
    expect(count(us, 'supply')).toBe('23');
    expect(count(ussr, 'supply')).toBe('21');
    expect(count(us, 'hand')).toBe('5');
    expect(count(ussr, 'hand')).toBe('4');
    // Boris's own hand is his to see; Ann's shows as backs.
    expect(us.querySelectorAll('[data-hidden-hand] .card-back')).toHaveLength(5);
    expect(ussr.querySelector('[data-hidden-hand]')).toBeNull();
    expect(ussr.textContent).toContain('Boris (you)');
    expect(within(us).getByText('none yet')).toBeTruthy();
    const toMove = state.decision?.seat;
    expect(us.dataset.toMove).toBe(String(toMove === '0'));
    expect(ussr.dataset.toMove).toBe(String(toMove === '1'));
    expect(within(toMove === '0' ? us : ussr).getByText('To move')).toBeTruthy();
    // The opponent's panel on top, the viewer's own at the bottom of the column.
    const order = [...document.querySelectorAll('.player-panel')].map((p) =>
      p.getAttribute('data-player'),
    );
    expect(order).toEqual(['0', '1']);
    expect(document.querySelector('.round-line')?.textContent).toContain('Reserve: 8 cards');
  });

  it('shows the aftermath card face down to the other seat and face up to its own', () => {
    const state = { ...newMatch(), aftermath: { '0': 'iran', '1': 'poland' } } as State;
    renderView(state, '0');
    const own = screen.getByRole('region', { name: 'US: Ann' });
    const other = screen.getByRole('region', { name: 'USSR: Boris' });
    expect(own.querySelector('[data-aftermath]')?.textContent).toBe('Iran');
    expect(within(other).getByRole('img', { name: 'Aftermath card, face down' })).toBeTruthy();
    expect(other.textContent).not.toContain('Poland');
  });

  it('shows the region progress and, as the engine scores it, what each region would score now', () => {
    const { state } = midRound();
    renderView(state, '1');
    const bonus = RULES.deck.regions.find((r) => r.id === 'middle-east')?.bonus as number;
    const middleEast = document.querySelector('[data-region="middle-east"]') as HTMLElement;
    expect(middleEast.textContent).toBe(
      `◆ Middle East1/2${bonus}◇ (reconstructed)USSRUSSR +${bonus + 1}`,
    );
    const europe = document.querySelector('[data-region="europe"]') as HTMLElement;
    expect(europe.textContent).toBe('★ Europe1/63––');
    const chip = document.querySelector('[data-region-now="middle-east"]') as HTMLElement;
    expect(chip.dataset.leader).toBe('USSR');
    expect(chip.textContent).toContain(`Middle East now: USSR +${bonus + 1}`);
    expect(chip.textContent).toContain('1/2');
    expect(
      (document.querySelector('[data-region-now="europe"]') as HTMLElement).textContent,
    ).toContain('Europe now: even');
    // The key to the table is on screen, not behind a hover.
    const key = screen.getAllByRole('list', { name: 'Key to the table' })[0] as HTMLElement;
    expect(key.textContent).toContain('dominates');
    expect(key.textContent).toContain('costs the other side 2');
  });

  it("says in the page title when it is the viewer's turn, and no longer once it is not", () => {
    const state = newMatch();
    const seat = state.decision?.seat as Seat;
    const other: Seat = seat === '0' ? '1' : '0';
    const { unmount } = renderView(state, seat);
    expect(document.title).toBe('● Your turn · Iron Curtain');
    unmount();
    expect(document.title).toBe('Iron Curtain');
    renderView(state, other);
    expect(document.title).toBe('Iron Curtain');
  });

  it('says that the default deck is partly a reconstruction', () => {
    const { state } = midRound();
    renderView(state, null);
    expect(screen.getByText(/parts of this deck are a reconstruction/)).toBeTruthy();
  });

  it('says what the last move did and outlines the card played last', () => {
    const state = newMatch();
    const first = play(
      state,
      ['1', 'chooseFirstPlayer', 'USSR'],
      ['1', 'playCard', 'iran', { x: 1, y: 0 }],
    );
    const last = play(state, ['0', 'decideEvent', false]);
    renderView(state, '1', [...first, ...last], last);
    const recent = screen.getByRole('region', { name: 'Just happened' });
    expect(recent.textContent).toBe(
      describeLogEntry(last[0] as (typeof last)[number], DEFAULT_DECK),
    );
    expect(document.querySelector('.table-card.last')?.getAttribute('data-card')).toBe('iran');
  });

  it('writes the log in words, a card played named by its neighbours and not by grid coordinates', () => {
    const { state, log } = midRound();
    renderView(state, null, log);
    const items = [...screen.getByRole('region', { name: 'Move log' }).querySelectorAll('li')];
    // The engine's English words, but for where a card went: players name the cards beside it.
    expect(items.map((li) => li.textContent)).toEqual(
      log.map((e) =>
        e.type === 'play' && e.cardId === 'iran'
          ? 'The USSR played Iran right of Europe.'
          : describeLogEntry(e, DEFAULT_DECK),
      ),
    );
    for (const item of items) expect(item.textContent).not.toMatch(/\(\d+, \d+\)/);
    expect(items[0]?.textContent).toMatch(/^The USSR chose .*go first in round 1\.$/);
  });
});

describe('the end of a match', () => {
  it('names the winner and the reason and shows the final scoring step by step', async () => {
    // A seeded game that ends after final scoring.
    const random = seeded(7);
    const state = newMatch();
    playUntil(
      state,
      () => false,
      (moves) => moves[Math.floor(random() * moves.length)] as never,
    );
    expect(state.result).not.toBeNull();
    renderView(state, null);
    const result = await screen.findByRole('region', { name: 'Result' });
    // The final scoring plays first; a skip goes straight to the result.
    const skip = screen.queryByRole('button', { name: 'Skip to the result' });
    if (state.finalScoring?.length) fireEvent.click(skip as HTMLElement);
    const winner = state.result?.winnerSide as string;
    expect(result.getAttribute('data-winner')).toBe(winner);
    expect(within(result).getByRole('heading', { level: 2 }).textContent).toContain(
      `The ${winner} (${winner === 'US' ? 'Ann' : 'Boris'}) wins`,
    );
    const steps = [...result.querySelectorAll('[data-step]')].map((s) =>
      s.getAttribute('data-step'),
    );
    expect(steps).toEqual(
      (state.finalScoring ?? []).map((s) =>
        s.kind === 'aftermath' ? 'aftermath' : `region:${s.score.region}`,
      ),
    );
    if (state.result?.reason === 'final') {
      expect(steps).toEqual([
        'aftermath',
        'region:europe',
        'region:middle-east',
        'region:asia',
        'region:africa',
        'region:south-america',
        'region:central-america',
      ]);
    }
    // The revealed aftermath cards are named.
    const aftermath = result.querySelector('[data-step="aftermath"]') as HTMLElement;
    for (const id of [state.aftermath['0'], state.aftermath['1']]) {
      expect(aftermath.textContent).toContain(deck.card(id as string).name);
    }
    expect(screen.queryByRole('region', { name: 'Decision' })).toBeNull();
  });
});
