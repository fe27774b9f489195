import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { synced } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('chat');
const { shot } = suite;

const chatLines = (page: Page) =>
  page.locator('.chat-lines li').evaluateAll((els) => els.map((e) => e.textContent ?? ''));

describe('the match chat in the browser', () => {
  it('players talk in their own languages, the spectator apart; refusals are explained; phone controls are large enough', async () => {
    const desktop = { viewport: { width: 1366, height: 900 } };
    const phone = {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'de-DE',
    };
    const host = await suite.context(desktop);
    const guest = await suite.context(phone);
    const watch = await suite.context(desktop);

    const ann = await host.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    const spectate = await ann.getByLabel('Spectator link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    // Boris reads German (his browser's language).
    const boris = await guest.newPage();
    await boris.goto(invite);
    await boris.getByLabel('Dein Name').fill('Boris');
    await boris.getByRole('button', { name: 'Platz nehmen und spielen' }).click();
    await synced(boris);
    const watcher = await watch.newPage();
    await watcher.goto(spectate);
    await synced(watcher);
    await synced(ann);

    // On his phone the chat is one of the tabs below the table: a quick phrase that arrives
    // while it is folded is counted on the tab. Ann taps "Good luck", Boris reads "Viel Glück".
    await ann.getByRole('button', { name: 'Good luck' }).click();
    await boris.getByRole('tab', { name: 'Chat, 1 ungelesen' }).waitFor();
    await shot(boris, 'phone-unread');
    await boris.getByRole('tab', { name: 'Chat, 1 ungelesen' }).click();
    await boris.locator('.chat-lines li', { hasText: 'Viel Glück' }).waitFor();
    expect(await boris.getByRole('tab', { name: 'Chat', exact: true }).count()).toBe(1);
    // Free text, rendered as text; markup refused with a German reason.
    const box = boris.getByRole('textbox', { name: 'Nachricht' });
    await box.fill('<b>hallo</b>');
    await boris.getByRole('button', { name: 'Senden' }).click();
    await boris.locator('[data-chat-refusal="CHAT_BAD_TEXT"]').waitFor();
    expect(await boris.locator('[data-chat-refusal]').textContent()).toContain('reiner Text');
    await box.fill('Hello Ann, 2 < 3');
    await boris.getByRole('button', { name: 'Senden' }).click();
    await ann.locator('.chat-lines li', { hasText: 'Hello Ann, 2 < 3' }).waitFor();
    // The spectators' room: the watcher talks, the players do not read it.
    await watcher.getByRole('textbox', { name: 'Message' }).fill('Watching from afar');
    await watcher.getByRole('button', { name: 'Send' }).click();
    await watcher.locator('.chat-lines li', { hasText: 'Watching from afar' }).waitFor();
    await ann.getByRole('button', { name: 'Thanks' }).click();
    await boris.locator('.chat-lines li', { hasText: 'Danke' }).waitFor();
    expect(await chatLines(boris)).toEqual([
      'Ann Viel Glück',
      'Boris Hello Ann, 2 < 3',
      'Ann Danke',
    ]);
    expect(await chatLines(watcher)).toEqual(['Spectator Watching from afar']);

    // A reload shows the history.
    await ann.reload();
    await synced(ann);
    await ann.locator('.chat-lines li', { hasText: 'Thanks' }).waitFor();
    expect(await chatLines(ann)).toEqual(['Ann Good luck', 'Boris Hello Ann, 2 < 3', 'Ann Thanks']);

    // On the phone every chat control is at least 44 x 44 CSS px.
    const panel = boris.locator('.chat-panel');
    await panel.scrollIntoViewIfNeeded();
    const sizes = await panel.locator('button, input').evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { what: e.textContent || e.getAttribute('type'), w: r.width, h: r.height };
      }),
    );
    expect(sizes.filter((s) => s.w < 44 || s.h < 44)).toEqual([]);
    await shot(ann, 'desktop-player');
    await shot(watcher, 'desktop-spectator');
    await shot(boris, 'phone-player');
    await Promise.all([host.close(), guest.close(), watch.close()]);
  });
});
