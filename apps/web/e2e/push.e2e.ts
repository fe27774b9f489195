import { describe, expect, it } from 'vitest';
import { openAgainstComputer } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('push');

const SENTENCE = 'It is your turn in Iron Curtain.';

describe('your-turn notifications', () => {
  it('the table’s opt-in registers the worker, served under the pages’ policy; a push delivered to it shows the sentence, tagged with the match', async () => {
    const context = await suite.context({ viewport: { width: 1366, height: 768 } });
    await context.grantPermissions(['notifications'], { origin: suite.server.url });
    const page = await context.newPage();
    const { matchID } = await openAgainstComputer(page, suite.server.url);

    const [pageAnswer, workerAnswer] = await Promise.all(
      ['/', '/sw.js'].map((path) => fetch(`${suite.server.url}${path}`)),
    );
    const policy = pageAnswer?.headers.get('content-security-policy');
    expect(policy).toContain("default-src 'self'");
    expect(workerAnswer?.headers.get('content-security-policy')).toBe(policy);
    expect(workerAnswer?.headers.get('content-type')).toMatch(/javascript/);

    const cdp = await context.newCDPSession(page);
    const activated = new Promise<string>((resolve) => {
      cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
        const version = versions.find(
          (v) => v.scriptURL.endsWith('/sw.js') && v.status === 'activated',
        );
        if (version) resolve(version.registrationId);
      });
    });
    await cdp.send('ServiceWorker.enable');
    await page.getByRole('button', { name: 'Notify me when it is my turn' }).click();
    const registrationId = await activated;

    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: suite.server.url,
      registrationId,
      data: JSON.stringify({ matchID, text: SENTENCE }),
    });
    // Polled from here: waitForFunction counts an async predicate's promise as truthy, so it
    // once answered `false`, the notification not yet shown.
    const shown = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const notifications = (await registration?.getNotifications()) ?? [];
        return notifications.map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
          data: n.data,
        }));
      });
    await expect
      .poll(shown, { timeout: 15_000 })
      .toEqual([{ title: 'Iron Curtain', body: SENTENCE, tag: matchID, data: { matchID } }]);

    // A notification's click cannot be made here: the DevTools protocol has no such command,
    // and a click dispatched inside the worker is not the user's (clients.openWindow answers
    // "Not allowed to open a window"). test/service-worker.test.ts covers the click handler.

    // With no route to Chromium's push service (CI has none) subscribing fails, and says so;
    // with one, the server registers the browser.
    await page
      .locator('.push-opt-in')
      .getByText(/Notifications are on|could not reach its notification service/)
      .waitFor();

    // My games offers the same for every match still to play.
    await page.goto('/');
    await page
      .getByRole('button', { name: 'Notify me when it is my turn in these games' })
      .waitFor();
    await suite.shot(page, 'my-games-opt-in', { fullPage: false });
  });
});
