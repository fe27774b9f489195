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

  it('keeps the box to type in whole in view whenever the chat tab is open, at 1366x768, 1440x900 and 1920x1080', async () => {
    const desktop = { viewport: { width: 1366, height: 768 } };
    const [host, guest] = [await suite.context(desktop), await suite.context(desktop)];
    const ann = await host.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    const boris = await guest.newPage();
    await boris.goto(invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    const box = boris.getByRole('textbox', { name: 'Message' });
    await box.waitFor();

    /** The box lies in the window and in its panel's visible part: a click at each corner reaches it. */
    const boxInView = (where: string) =>
      box.evaluate((input, at) => {
        // As the tab opens: its panel scrolled to the top (Playwright's typing scrolled it).
        input.closest('.side-panel')?.scrollTo(0, 0);
        const r = input.getBoundingClientRect();
        const corners: [number, number][] = [
          [r.left + 2, r.top + 2],
          [r.right - 2, r.top + 2],
          [r.left + 2, r.bottom - 2],
          [r.right - 2, r.bottom - 2],
        ];
        return {
          at,
          inWindow: r.top >= 0 && r.bottom <= innerHeight,
          reached: corners.every(([x, y]) => document.elementFromPoint(x, y) === input),
        };
      }, where);
    const sizes = [desktop.viewport, { width: 1440, height: 900 }, { width: 1920, height: 1080 }];
    const checkEverySize = async (moment: string) => {
      for (const size of sizes) {
        await boris.setViewportSize(size);
        const where = `${moment} ${size.width}x${size.height}`;
        expect(await boxInView(where)).toEqual({ at: where, inWindow: true, reached: true });
      }
      await boris.setViewportSize(desktop.viewport);
    };

    await checkEverySize('no line yet');
    // A talkative match: more lines than the box shows, and a refusal under the box.
    for (const phrase of ['Good luck', 'Well played', 'Good game', 'Thanks', 'Oops']) {
      await ann.getByRole('button', { name: phrase }).click();
      await boris.locator('.chat-lines li', { hasText: phrase }).waitFor();
    }
    for (const text of ['One more line', 'And another one', 'The last line']) {
      await box.fill(text);
      await boris.getByRole('button', { name: 'Send' }).click();
      await boris.locator('.chat-lines li', { hasText: text }).waitFor();
    }
    await checkEverySize('eight lines');
    await box.fill('<b>markup</b>');
    await boris.getByRole('button', { name: 'Send' }).click();
    await boris.locator('[data-chat-refusal]').waitFor();
    await checkEverySize('a refusal');
    await shot(boris, 'desktop-1366x768-talkative', { fullPage: false });
  });
});
