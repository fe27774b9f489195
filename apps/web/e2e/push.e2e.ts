import { describe, expect, it } from 'vitest';
import { openAgainstComputer } from './drive.ts';
import { expectPushShown, turnNotificationsOn } from './push-delivery.ts';
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

    const registrationId = await turnNotificationsOn(context, page);
    // With no route to Chromium's push service (CI has none) subscribing fails, and says so;
    // with one, the server registers the browser.
    await page
      .locator('.push-opt-in')
      .getByText(/Notifications are on|could not reach its notification service/)
      .waitFor();

    await expectPushShown(context, page, registrationId, { matchID, text: SENTENCE }, [
      { title: 'Iron Curtain', body: SENTENCE, tag: matchID, data: { matchID } },
    ]);
    // A notification's click cannot be made here: the DevTools protocol has no such command,
    // and a click dispatched inside the worker is not the user's (clients.openWindow answers
    // "Not allowed to open a window"). test/service-worker.test.ts covers the click handler.

    // My games offers the same for every match still to play.
    await page.goto('/');
    await page
      .getByRole('button', { name: 'Notify me when it is my turn in these games' })
      .waitFor();
    await suite.shot(page, 'my-games-opt-in', { fullPage: false });
  });
});
