import type { Presence } from '@iron-curtain/protocol';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HomePage } from '../src/lobby/HomePage.tsx';
import { JoinPage } from '../src/lobby/JoinPage.tsx';
import { MatchScreen } from '../src/match/MatchScreen.tsx';
import { loadSeat } from '../src/match/seatStore.ts';
import { FakeTransport } from './fakeTransport.ts';
import { newMatch, play, RULES, wireView } from './fixtures.ts';

const MATCH = 'match-0001';
const NOW = new Date().toISOString();
const CREDENTIALS = 'c'.repeat(24);

type Reply = { status: number; body: unknown };

/** Stands in for the lobby: answers each request from the list, records what was asked. */
function mockLobby(replies: Record<string, Reply>) {
  const calls: { method: string; url: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    const reply = replies[`${method} ${url}`];
    if (!reply) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(reply.body), { status: reply.status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  window.history.replaceState(null, '', '/');
});

const matchInfo = (secondName: string | null) => ({
  matchID: MATCH,
  status: secondName ? 'playing' : 'waiting',
  visibility: 'public',
  players: [
    { seat: '0', side: 'US', name: 'Ann', connected: true },
    { seat: '1', side: 'USSR', name: secondName, connected: false },
  ],
  spectators: 0,
  variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
  deck: { id: 'reconstructed', version: '1', name: 'Deck', hash: 'h', reconstructed: true },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  result: null,
});

describe('the start page', () => {
  it('creates a match with the chosen side, variants and visibility, then shows both links', async () => {
    const calls = mockLobby({
      'GET /api/matches?status=playing': { status: 200, body: { matches: [matchInfo('Boris')] } },
      'GET /api/challenges': { status: 200, body: { challenges: [], at: NOW } },
      'GET /api/decks': {
        status: 200,
        body: {
          decks: [
            { id: 'reconstructed', version: '1', name: 'Default', hash: 'a', reconstructed: true },
            { id: 'owners', version: '2', name: 'Printed cards', hash: 'b', reconstructed: false },
          ],
        },
      },
      'POST /api/matches': {
        status: 201,
        body: {
          matchID: MATCH,
          seat: '0',
          side: 'USSR',
          credentials: CREDENTIALS,
          links: { invite: `/join/${MATCH}#secret-token`, spectate: `/watch/${MATCH}` },
        },
      },
    });
    render(<HomePage account={null} />);
    // Typed names, each marked as a guest's.
    const line = (await screen.findByText('Boris')).closest('li');
    expect(line?.textContent).toMatch(/US: Ann guest vs USSR: Boris guest/);
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByLabelText('the USSR'));
    fireEvent.change(screen.getByLabelText('Aftermath'), { target: { value: 'none' } });
    fireEvent.click(screen.getByLabelText(/^Public: listed/));
    // Decks are chosen by hash: an uploaded deck may share the default deck's id.
    fireEvent.change(await screen.findByLabelText('Deck'), { target: { value: 'b' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create the match' }));
    expect(await screen.findByText('Your match is ready: you play the USSR')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Ann',
      side: 'USSR',
      visibility: 'public',
      variants: { aftermathCap: null, finalScoringOrder: 'standard' },
      deckId: 'b',
      opponent: 'human',
    });
    const invite = screen.getByLabelText('Invite link') as HTMLInputElement;
    expect(invite.value).toBe(`${window.location.origin}/join/${MATCH}#secret-token`);
    expect((screen.getByLabelText('Spectator link') as HTMLInputElement).value).toBe(
      `${window.location.origin}/watch/${MATCH}`,
    );
    expect(loadSeat(MATCH)?.credentials).toBe(CREDENTIALS);
  });

  it("shows the lobby's refusal", async () => {
    mockLobby({
      'GET /api/matches?status=playing': { status: 200, body: { matches: [] } },
      'GET /api/matches?status=waiting': { status: 200, body: { matches: [] } },
      'POST /api/matches': {
        status: 429,
        body: { error: { code: 'RATE_LIMITED', message: 'too many matches; wait a minute' } },
      },
    });
    render(<HomePage account={null} />);
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create the match' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many requests: wait a moment and try again.',
    );
  });

  it('says when the server cannot be reached', async () => {
    mockLobby({});
    render(<HomePage account={null} />);
    expect((await screen.findAllByText(/The server cannot be reached/)).length).toBeGreaterThan(0);
  });

  const created = {
    status: 201,
    body: {
      matchID: MATCH,
      seat: '0',
      side: 'US',
      credentials: CREDENTIALS,
      links: { invite: `/join/${MATCH}#secret-token`, spectate: `/watch/${MATCH}` },
    },
  };

  it('creates a private match for a friend in one click, under a default name, and shows the invite link', async () => {
    const calls = mockLobby({ 'POST /api/matches': created });
    render(<HomePage account={null} />);
    fireEvent.click(screen.getByRole('button', { name: 'Create the match' }));
    expect(await screen.findByLabelText('Invite link')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Player',
      side: 'random',
      visibility: 'private',
      variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
      opponent: 'human',
    });
  });

  it('opens a match to anyone and goes to its table to wait', async () => {
    const calls = mockLobby({ 'POST /api/matches': created });
    render(<HomePage account={null} />);
    fireEvent.click(screen.getByLabelText(/^Open to anyone/));
    fireEvent.click(screen.getByRole('button', { name: 'Create the match' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ visibility: 'open' });
  });

  it('starts a match against the computer at the level clicked, remembering the name', async () => {
    const calls = mockLobby({ 'POST /api/matches': created });
    render(<HomePage account={null} />);
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Ann' } });
    fireEvent.click(screen.getByRole('button', { name: 'Hard' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Ann', opponent: 'hard' });
    expect(localStorage.getItem('iron-curtain:name')).toBe('Ann');
  });

  it('lists the open challenges with side, rules, clock and waiting time, and takes one in one click', async () => {
    const calls = mockLobby({
      'GET /api/challenges': {
        status: 200,
        body: {
          at: NOW,
          challenges: [
            {
              matchID: MATCH,
              side: 'USSR',
              creator: 'Ann',
              creatorAccount: 'Ann',
              variants: { aftermathCap: null, finalScoringOrder: 'polish' },
              deck: { name: 'Deck', version: '1' },
              clockMinutes: 10,
              daysPerTurn: null,
              createdAt: new Date(Date.parse(NOW) - 3 * 60_000).toISOString(),
            },
            {
              matchID: 'match-0002',
              side: 'US',
              creator: 'Carla',
              creatorAccount: null,
              variants: { aftermathCap: 3, finalScoringOrder: 'standard' },
              deck: { name: 'Deck', version: '1' },
              clockMinutes: null,
              daysPerTurn: 3,
              createdAt: NOW,
            },
          ],
        },
      },
      [`POST /api/matches/${MATCH}/join`]: {
        status: 200,
        body: { matchID: MATCH, seat: '1', side: 'USSR', credentials: CREDENTIALS },
      },
    });
    render(<HomePage account={null} />);
    const row = await screen.findByRole('button', { name: 'Play Ann' });
    const text = row.closest('li')?.textContent ?? '';
    for (const part of [
      'you play the USSR',
      'aftermath without cap, Polish scoring order',
      '10 minutes per player',
      'waiting for 3 minutes',
    ]) {
      expect(text).toContain(part);
    }
    // An account's name links to its profile, marked; a typed name is marked as a guest's.
    expect(
      within(row.closest('li') as HTMLElement).getByRole('link', { name: 'Ann' }),
    ).toBeTruthy();
    expect(text).toContain('Ann account');
    const correspondence = screen.getByRole('button', { name: 'Play Carla' });
    expect(correspondence.closest('li')?.textContent).toContain('3 days per turn');
    expect(correspondence.closest('li')?.textContent).toContain('Carla guest');
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Boris' } });
    fireEvent.click(row);
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Boris' });
    expect(loadSeat(MATCH)?.seat).toBe('1');
  });
});

describe('the start page, signed in', () => {
  const grant = {
    status: 201,
    body: {
      matchID: MATCH,
      seat: '0',
      side: 'US',
      credentials: CREDENTIALS,
      links: { invite: `/join/${MATCH}#secret-token`, spectate: `/watch/${MATCH}` },
    },
  };

  it('asks no name: it plays as the account, marked, and sends none for the server to replace', async () => {
    localStorage.removeItem('iron-curtain:name');
    const calls = mockLobby({ 'POST /api/matches': grant });
    render(<HomePage account="Marta" />);
    expect(screen.queryByLabelText('Your name')).toBeNull();
    const playingAs = screen.getByText(/Playing as/);
    expect(within(playingAs).getByRole('link', { name: 'Marta' }).getAttribute('href')).toBe(
      '/@/Marta',
    );
    expect(playingAs.textContent).toContain('account');
    fireEvent.click(screen.getByRole('button', { name: 'Hard' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ opponent: 'hard' });
    expect(loadSeat(MATCH)?.name).toBe('Marta');
    // The account's name is not a guest's name to offer next time.
    expect(localStorage.getItem('iron-curtain:name')).toBeNull();
  });
});

describe('the invite page', () => {
  it('says a correspondence match’s days per turn before the seat is taken', async () => {
    mockLobby({
      [`GET /api/matches/${MATCH}`]: { status: 200, body: { ...matchInfo(null), daysPerTurn: 3 } },
    });
    render(<JoinPage matchID={MATCH} invite="secret-token" account={null} />);
    expect(await screen.findByText('A correspondence match: 3 days per turn.')).toBeTruthy();
  });

  it("names an account's host by its account, linked to its profile, not as a guest", async () => {
    const info = matchInfo(null);
    info.players[0] = { ...info.players[0], name: 'Marta', account: 'Marta' } as never;
    mockLobby({ [`GET /api/matches/${MATCH}`]: { status: 200, body: info } });
    render(<JoinPage matchID={MATCH} invite="secret-token" account={null} />);
    const link = await screen.findByRole('link', { name: 'Marta' });
    expect(link.getAttribute('href')).toBe('/@/Marta');
    expect(screen.getByText('account')).toBeTruthy();
    expect(screen.queryByText('guest')).toBeNull();
  });

  it('takes the free seat under the given name and keeps the credentials', async () => {
    const calls = mockLobby({
      [`GET /api/matches/${MATCH}`]: { status: 200, body: matchInfo(null) },
      [`POST /api/matches/${MATCH}/join`]: {
        status: 200,
        body: { matchID: MATCH, seat: '1', side: 'USSR', credentials: CREDENTIALS },
      },
    });
    render(<JoinPage matchID={MATCH} invite="secret-token" account={null} />);
    expect(await screen.findByText(/plays the US; you would play the USSR/)).toBeTruthy();
    // A typed name: a guest's, with no profile to link to.
    expect(screen.getByText('Ann').closest('a')).toBeNull();
    expect(screen.getByText('guest')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Your name'), { target: { value: 'Boris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Take the seat and play' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.at(-1)?.body).toEqual({ name: 'Boris', invite: 'secret-token' });
    expect(loadSeat(MATCH)).toMatchObject({ seat: '1', side: 'USSR', name: 'Boris' });
  });

  it('joins a signed-in player as the account, with no name field and no name sent', async () => {
    const calls = mockLobby({
      [`GET /api/matches/${MATCH}`]: { status: 200, body: matchInfo(null) },
      [`POST /api/matches/${MATCH}/join`]: {
        status: 200,
        body: { matchID: MATCH, seat: '1', side: 'USSR', credentials: CREDENTIALS },
      },
    });
    render(<JoinPage matchID={MATCH} invite="secret-token" account="Marta" />);
    expect(await screen.findByText(/plays the US; you would play the USSR/)).toBeTruthy();
    expect(screen.queryByLabelText('Your name')).toBeNull();
    expect(screen.getByRole('link', { name: 'Marta' }).closest('p')?.textContent).toMatch(
      /Playing as Marta account/,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Take the seat and play' }));
    await waitFor(() => expect(window.location.pathname).toBe(`/match/${MATCH}`));
    expect(calls.at(-1)?.body).toEqual({ invite: 'secret-token' });
    expect(loadSeat(MATCH)).toMatchObject({ seat: '1', name: 'Marta' });
  });

  it("shows why a guest may not take a computer player's name", async () => {
    mockLobby({
      [`GET /api/matches/${MATCH}`]: { status: 200, body: matchInfo(null) },
      [`POST /api/matches/${MATCH}/join`]: {
        status: 409,
        body: { error: { code: 'GUEST_NAME_RESERVED', message: 'reserved' } },
      },
    });
    render(<JoinPage matchID={MATCH} invite="secret-token" account={null} />);
    fireEvent.change(await screen.findByLabelText('Your name'), {
      target: { value: 'Computer (easy)' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Take the seat and play' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /kept for the game itself or its computer players/,
    );
  });

  it('shows a refused invite', async () => {
    mockLobby({
      [`GET /api/matches/${MATCH}`]: { status: 200, body: matchInfo(null) },
      [`POST /api/matches/${MATCH}/join`]: {
        status: 403,
        body: {
          error: { code: 'BAD_INVITE', message: 'this invite does not belong to this match' },
        },
      },
    });
    render(<JoinPage matchID={MATCH} invite="wrong" account={null} />);
    fireEvent.change(await screen.findByLabelText('Your name'), { target: { value: 'Boris' } });
    fireEvent.click(screen.getByRole('button', { name: 'Take the seat and play' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This invite link is not valid: ask for the link again.',
    );
  });
});

describe('the match screen', () => {
  const presence: Presence = {
    matchID: MATCH,
    players: { '0': { name: 'Ann', connected: true }, '1': { name: 'Boris', connected: false } },
    spectators: 2,
  };

  it('offers no decision and puts the waiting note first while the second seat is free', () => {
    const transport = new FakeTransport();
    // The USSR (seat 1 in newMatch) would choose who goes first: not before the opponent exists.
    render(
      <MatchScreen
        matchID={MATCH}
        seat="1"
        credentials={CREDENTIALS}
        connect={() => transport}
        waitingNote={<section className="panel waiting">the invite link</section>}
      />,
    );
    act(() => transport.connect());
    const state = newMatch();
    const decider = state.decision?.seat as '0' | '1';
    const alone: Presence = {
      matchID: MATCH,
      players: {
        [decider]: { name: 'Ann', connected: true },
        [decider === '0' ? '1' : '0']: { name: null, connected: false },
      } as Presence['players'],
      spectators: 0,
      status: 'waiting',
    };
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: decider,
        rules: RULES,
        state: { G: wireView(state, decider), stateID: 1 },
        log: [],
        presence: alone,
      }),
    );
    expect(document.querySelectorAll('[data-choice]')).toHaveLength(0);
    expect(document.querySelector('[data-waiting]')?.textContent).toBe(
      'The game begins once both seats are taken: nothing to decide yet.',
    );
    const main = document.querySelector('main') as HTMLElement;
    const firstPanel = main.querySelector('.panel, .refusal-banner, .match-view');
    expect(firstPanel?.classList.contains('waiting')).toBe(true);
  });

  it('shows the connection state, the players and a refusal message', () => {
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="0" credentials={CREDENTIALS} connect={() => transport} />,
    );
    const status = () => screen.getByRole('status').textContent;
    expect(status()).toBe('Connecting…');
    act(() => transport.connect());
    expect(status()).toBe('Joining the match…');
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: '0',
        rules: RULES,
        state: { G: wireView(newMatch(), '0'), stateID: 1 },
        log: [],
        presence,
      }),
    );
    expect(status()).toBe('Connected');
    expect(screen.getByText(/2 watching/)).toBeTruthy();
    expect(document.querySelector('[data-player="1"]')?.textContent).toContain('Boris');
    expect(document.querySelector('[data-player="1"]')?.textContent).toContain('away');
    act(() =>
      transport.emit('refused', { code: 'RATE_LIMITED', message: 'too many messages; slow down' }),
    );
    // The code's sentence, never the server's own words.
    expect(screen.getByRole('alert').textContent).toContain('Too many requests: wait a moment');
    expect(screen.getByRole('alert').textContent).not.toContain('slow down');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => transport.drop());
    expect(status()).toBe('Connection lost, reconnecting…');
    // The last known table stays on screen while reconnecting.
    expect(screen.getByRole('region', { name: 'The table' })).toBeTruthy();
  });

  it("links an account's name at the table to its profile and marks a guest's", async () => {
    const info = matchInfo('Boris');
    info.players[0] = { ...info.players[0], account: 'Ann' } as never;
    mockLobby({ [`GET /api/matches/${MATCH}`]: { status: 200, body: info } });
    const bot = { ...info, players: [info.players[0], { ...info.players[1], computer: true }] };
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="1" credentials={CREDENTIALS} connect={() => transport} />,
    );
    act(() => transport.connect());
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: '1',
        rules: RULES,
        state: { G: wireView(newMatch(), '1'), stateID: 1 },
        log: [],
        presence,
      }),
    );
    const link = await screen.findByRole('link', { name: 'Ann' });
    expect(link.getAttribute('href')).toBe('/@/Ann');
    const side = (seat: string) =>
      document.querySelector(`[data-player="${seat}"] .player-side`)?.textContent;
    expect(side('0')).toBe('US · account');
    expect(side('1')).toBe('USSR · guest');
    // A computer player's seat, once the info says so.
    mockLobby({ [`GET /api/matches/${MATCH}`]: { status: 200, body: bot } });
    act(() =>
      transport.emit('presence', {
        ...presence,
        players: {
          ...presence.players,
          '1': { ...presence.players['1'], name: 'Computer (easy)' },
        },
      }),
    );
    await waitFor(() => expect(side('1')).toBe('USSR · computer'));
  });

  it("marks a seat as an account's as soon as the presence says it joined one, names unchanged", async () => {
    mockLobby({ [`GET /api/matches/${MATCH}`]: { status: 200, body: matchInfo('Boris') } });
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="0" credentials={CREDENTIALS} connect={() => transport} />,
    );
    act(() => transport.connect());
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: '0',
        rules: RULES,
        state: { G: wireView(newMatch(), '0'), stateID: 1 },
        log: [],
        presence,
      }),
    );
    const side = (seat: string) =>
      document.querySelector(`[data-player="${seat}"] .player-side`)?.textContent;
    await waitFor(() => expect(side('1')).toBe('USSR · guest'));
    // Boris signed in elsewhere and brought his seat: the server tells the room.
    const joined = matchInfo('Boris');
    joined.players[1] = { ...joined.players[1], account: 'Boris_7' } as never;
    mockLobby({ [`GET /api/matches/${MATCH}`]: { status: 200, body: joined } });
    act(() =>
      transport.emit('presence', {
        ...presence,
        players: { ...presence.players, '1': { ...presence.players['1'], account: 'Boris_7' } },
      }),
    );
    await waitFor(() => expect(side('1')).toBe('USSR · account'));
    expect(screen.getByRole('link', { name: 'Boris_7' }).getAttribute('href')).toBe('/@/Boris_7');
  });

  it('explains a seat whose credentials are refused', async () => {
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="1" credentials={CREDENTIALS} connect={() => transport} />,
    );
    act(() => transport.connect());
    await act(async () =>
      transport.last('sync').answer({
        ok: false,
        error: { code: 'UNAUTHORIZED', message: 'these credentials do not hold seat 1' },
      }),
    );
    expect(screen.getByRole('alert').textContent).toContain(
      'This browser does not hold that seat.',
    );
    expect(screen.getByRole('link', { name: 'Watch it instead' })).toBeTruthy();
  });

  /** Seat 0's match screen, synced with a match in play. */
  function seatInPlay(): FakeTransport {
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="0" credentials={CREDENTIALS} connect={() => transport} />,
    );
    act(() => transport.connect());
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: '0',
        rules: RULES,
        state: { G: wireView(newMatch(), '0'), stateID: 1 },
        log: [],
        presence: { ...presence, status: 'playing', result: null },
      }),
    );
    return transport;
  }

  it('resigns after a confirmation and shows the result the server pushes', async () => {
    const calls = mockLobby({
      [`POST /api/matches/${MATCH}/leave`]: { status: 200, body: matchInfo('Boris') },
    });
    const transport = seatInPlay();
    // The table reads the match's info (whose accounts hold the seats); only the resignation writes.
    const writes = () => calls.filter((c) => c.method === 'POST');
    fireEvent.click(screen.getByRole('button', { name: 'Resign…' }));
    expect(writes()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, resign' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]?.body).toEqual({ seat: '0', credentials: CREDENTIALS });
    act(() =>
      transport.emit('presence', {
        ...presence,
        status: 'finished',
        result: { winner: '1', winnerSide: 'USSR', reason: 'resigned' },
      }),
    );
    const result = screen.getByRole('region', { name: 'Result' });
    expect(result.textContent).toBe('The USSR winsThe US resigned.');
    expect(screen.queryByRole('button', { name: 'Resign…' })).toBeNull();
  });

  it('says once, as a sentence, why a match ended on time or by absence, never the raw code', async () => {
    const transport = seatInPlay();
    for (const [reason, sentence] of [
      ['timeout', 'The US ran out of time.'],
      ['abandoned', 'The US was away too long and lost the match.'],
    ] as const) {
      act(() =>
        transport.emit('presence', {
          ...presence,
          status: 'finished',
          result: { winner: '1', winnerSide: 'USSR', reason },
        }),
      );
      // Awaited with findAllByText's deadline: under a loaded machine the full run once read the page before the result was drawn.
      expect(await screen.findAllByText(sentence)).toHaveLength(1);
      expect(document.body.textContent).not.toContain(`(${reason})`);
    }
  });

  it('sends a draft of cubes, confirmed once, as one message to the server', () => {
    const transport = new FakeTransport();
    render(
      <MatchScreen matchID={MATCH} seat="0" credentials={CREDENTIALS} connect={() => transport} />,
    );
    act(() => transport.connect());
    // The USSR played Iran and the US declined its event: the USSR Commands, then the US with West Germany.
    const state = newMatch();
    play(
      state,
      ['1', 'chooseFirstPlayer', 'USSR'],
      ['1', 'playCard', 'iran', { x: 1, y: 0 }],
      ['0', 'decideEvent', false],
      ['1', 'placeCubes', [['iran'], ['iran']]],
      ['0', 'playCard', 'west-germany', { x: -1, y: 0 }],
      ['0', 'chooseAction', 'command'],
    );
    act(() =>
      transport.emit('sync', {
        matchID: MATCH,
        playerID: '0',
        rules: RULES,
        state: { G: wireView(state, '0'), stateID: 9 },
        log: [],
        presence: { ...presence, status: 'playing', result: null },
      }),
    );
    const updates = () => transport.sent.filter((s) => s.event === 'update');
    const target = (id: string) =>
      document.querySelector(`button.table-card[data-card="${id}"]`) as HTMLButtonElement;
    fireEvent.click(target('europe'));
    fireEvent.click(target('west-germany'));
    expect(updates()).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Place these cubes (2)' }));
    expect(updates()).toHaveLength(1);
    expect(transport.last('update').payload).toEqual({
      matchID: MATCH,
      stateID: 9,
      action: {
        type: 'MAKE_MOVE',
        payload: { type: 'placeCubes', args: [[['europe'], ['west-germany']]], playerID: '0' },
      },
    });
  });
});
