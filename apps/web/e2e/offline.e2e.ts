import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openAgainstComputer } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('offline');
const { shot } = suite;

const NOTICE =
  'You are offline. Playing online waits for the connection; the rules, the tutorial and two on one device work without it.';

/** The page once the service worker controls it: the shell is kept (the worker is installed). */
const controlled = (page: Page) =>
  page.waitForFunction(() => navigator.serviceWorker.controller !== null);

/**
 * Whether the page came from the server: it names the home page's own code beside the shell's
 * (static-files.ts); the shell kept at install names the shell's only.
 */
const servers = async (answer: Promise<Response | null>) =>
  /<link rel="modulepreload"[^>]*HomePage-/.test((await (await answer)?.text()) ?? '');

describe('the installed app offline', () => {
  it('opens offline to the shell, says it is offline, shows the last My games marked with its time, and refuses in words what needs the server', async () => {
    const context = await suite.context({ viewport: { width: 1366, height: 768 } });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const { matchID } = await openAgainstComputer(page, suite.server.url);

    // The worker is registered at load, with no opt-in to notifications.
    expect(await servers(page.goto('/'))).toBe(true);
    const row = page.locator(`.my-game[data-match="${matchID}"]`);
    await row.waitFor();
    await controlled(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      `${suite.server.url}/sw.js`,
    );
    expect(await page.locator('.offline-notice').textContent()).toBe('');

    await context.setOffline(true);
    expect(await servers(page.reload())).toBe(false);
    await page.getByRole('navigation', { name: 'Site' }).waitFor();
    await page.getByText(NOTICE).waitFor();
    await row.waitFor();
    const kept = page.locator('.my-games-kept');
    await kept.waitFor();
    expect(await kept.textContent()).toMatch(/^Offline, as of .+: this list is refreshed once/);
    expect(await row.textContent()).toContain('You (USSR) against');
    await shot(page, 'home-1366x768', { fullPage: false });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'home-1920x1080', { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'home-390x844', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'dark' });
    await shot(page, 'home-390x844-dark', { fullPage: false });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width: 1366, height: 768 });

    // What needs the server says so.
    await page.getByRole('button', { name: 'Easy' }).click();
    await page
      .locator('.computer-tile')
      .getByText('You are offline: this needs the connection. Try again once you are back online.')
      .waitFor();
    expect(new URL(page.url()).pathname).toBe('/');

    // The pages that need no server open offline too, from the kept shell.
    await page.goto('/rules');
    await page.getByRole('heading', { name: 'The cards of this deck' }).waitFor();
    await page.getByText(NOTICE).waitFor();

    // Back online: the list is asked for again and the mark goes.
    await page.goto('/');
    await kept.waitFor();
    await context.setOffline(false);
    await kept.waitFor({ state: 'detached' });
    await row.waitFor();
    expect(await page.locator('.offline-notice').textContent()).toBe('');
    // Online, a page is the server's again, not the kept shell.
    expect(await servers(page.reload())).toBe(true);
    await row.waitFor();
    expect(violations).toEqual([]);

    // The server gone altogether, the app opened again: the same shell and list, from the worker.
    await suite.server.stop();
    const reopened = await context.newPage();
    await reopened.goto('/');
    await reopened.locator(`.my-game[data-match="${matchID}"]`).waitFor();
    await reopened.locator('.my-games-kept').waitFor();
  });
});
