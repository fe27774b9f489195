import type { ChatLine, ChatMessage, ChatSettings } from '@iron-curtain/protocol';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { ChatPanel } from '../src/chat/ChatPanel.tsx';
import { MatchChat } from '../src/chat/chatClient.ts';
import { setLanguage } from '../src/i18n/i18n.ts';
import { FakeTransport } from './fakeTransport.ts';

const MATCH = 'match-0001';
const names = { '0': 'Ann', '1': 'Boris' } as const;
const settings = (change: Partial<ChatSettings> = {}): ChatSettings => ({
  off: false,
  freeText: true,
  mutingOpponent: false,
  canSwitch: false,
  ...change,
});
const line = (id: number, change: Partial<ChatLine>): ChatLine => ({
  id,
  room: 'players',
  seat: '1',
  at: '2026-01-01T00:00:00.000Z',
  ...change,
});

function mount(seat: '0' | '1' | null = '0') {
  const transport = new FakeTransport();
  const chat = new MatchChat(transport, MATCH);
  render(<ChatPanel chat={chat} seat={seat} names={names} />);
  const serve = (message: ChatMessage) => act(() => transport.emit('chat', message));
  return { transport, chat, serve };
}

afterEach(async () => {
  await setLanguage('en', { remember: false });
});

describe('the chat panel', () => {
  it('shows nothing before the server sent the history, then the lines with their writers', () => {
    const { serve } = mount();
    expect(screen.queryByRole('region', { name: 'Chat' })).toBeNull();
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [line(1, { phrase: 'goodLuck' }), line(2, { seat: '0', text: 'hello' })],
      settings: settings(),
    });
    const items = screen.getAllByRole('listitem').map((li) => li.textContent);
    expect(items).toEqual(['Boris Good luck', 'Ann hello']);
  });

  it('renders markup a line carries as text, never as HTML', () => {
    const { serve } = mount();
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings() });
    serve({
      kind: 'line',
      matchID: MATCH,
      line: line(3, { text: '<img src=x onerror=alert(1)>' }),
    });
    expect(document.querySelector('.chat-lines img')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
  });

  it('shows a quick phrase in the reader’s language and sends its id, not its words', async () => {
    await setLanguage('de', { remember: false });
    const { serve, transport } = mount();
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [line(1, { phrase: 'wellPlayed' })],
      settings: settings(),
    });
    expect(screen.getByRole('listitem').textContent).toBe('Boris Gut gespielt');
    fireEvent.click(screen.getByRole('button', { name: 'Revanche?' }));
    expect(transport.last('chat').payload).toEqual({
      matchID: MATCH,
      kind: 'phrase',
      phrase: 'rematch',
    });
  });

  it('a line arriving twice (live and in a history) shows once, in order', () => {
    const { serve } = mount();
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [line(1, { text: 'a' })],
      settings: settings(),
    });
    serve({ kind: 'line', matchID: MATCH, line: line(3, { text: 'c' }) });
    serve({ kind: 'line', matchID: MATCH, line: line(2, { text: 'b' }) });
    serve({ kind: 'line', matchID: MATCH, line: line(3, { text: 'c' }) });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Boris a',
      'Boris b',
      'Boris c',
    ]);
  });

  it('a refused line shows the refusal in the reader’s words and keeps the draft', async () => {
    const { serve, transport } = mount();
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings() });
    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'too fast' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    const sent = transport.last('chat');
    expect(sent.payload).toEqual({ matchID: MATCH, kind: 'text', text: 'too fast' });
    act(() => sent.answer({ ok: false, error: { code: 'CHAT_TOO_FAST', message: 'x' } }));
    await screen.findByText('You are chatting too fast: wait a moment.');
    expect((input as HTMLInputElement).value).toBe('too fast');
  });

  it('refuses markup before sending anything, with its reason', async () => {
    const { serve, transport } = mount();
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings() });
    fireEvent.change(screen.getByRole('textbox', { name: 'Message' }), {
      target: { value: '<b>x</b>' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    await screen.findByRole('alert');
    expect(document.querySelector('[data-chat-refusal]')?.getAttribute('data-chat-refusal')).toBe(
      'CHAT_BAD_TEXT',
    );
    expect(transport.sent.filter((s) => s.event === 'chat')).toEqual([]);
  });

  it('a sent line clears the draft once the server took it', async () => {
    const { serve, transport } = mount();
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings() });
    const input = screen.getByRole('textbox', { name: 'Message' }) as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'gg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    act(() => transport.last('chat').answer({ ok: true }));
    await waitFor(() => expect(input.value).toBe(''));
  });

  it('quick phrases only: no text box when the server takes no free text', () => {
    const { serve } = mount();
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings({ freeText: false }) });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.getByText('This server allows quick phrases only.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Good game' })).toBeTruthy();
  });

  it('the creator switches the chat off; while off there is nothing to send', () => {
    const { serve, transport } = mount('0');
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings({ canSwitch: true }) });
    fireEvent.click(screen.getByRole('button', { name: 'Turn chat off' }));
    expect(transport.last('chatSettings').payload).toEqual({ matchID: MATCH, off: true });
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [],
      settings: settings({ canSwitch: true, off: true }),
    });
    expect(screen.queryByRole('textbox')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Good luck' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Turn chat on' })).toBeTruthy();
  });

  it('a seat mutes its opponent; a spectator has no mute and no switch', () => {
    const { serve, transport } = mount('1');
    serve({ kind: 'history', matchID: MATCH, lines: [], settings: settings() });
    expect(screen.queryByRole('button', { name: 'Turn chat off' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Mute opponent' }));
    expect(transport.last('chatSettings').payload).toEqual({ matchID: MATCH, muteOpponent: true });
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [],
      settings: settings({ mutingOpponent: true }),
    });
    expect(
      screen.getByRole('button', { name: 'Unmute opponent' }).getAttribute('aria-pressed'),
    ).toBe('true');
  });

  it('spectators see their own room named as such, without switches', () => {
    const { serve } = mount(null);
    serve({
      kind: 'history',
      matchID: MATCH,
      lines: [line(1, { room: 'spectators', seat: null, text: 'nice move' })],
      settings: settings(),
    });
    expect(screen.getByRole('heading', { name: "Spectators' chat" })).toBeTruthy();
    expect(screen.getByRole('listitem').textContent).toBe('Spectator nice move');
    expect(screen.queryByRole('button', { name: 'Mute opponent' })).toBeNull();
  });
});
