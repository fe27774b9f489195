import type { BrowserContext, Page } from 'playwright-core';

/**
 * Web Push in headless Chromium, through the DevTools protocol: there is no push service to
 * reach here, so a test delivers the message to the page's service worker itself.
 */

/** Turns notifications on at the table and answers the service worker's registration id. */
export async function turnNotificationsOn(context: BrowserContext, page: Page): Promise<string> {
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
  return activated;
}

/** Delivers a push with `data` to the worker registered as `registrationId`. */
export async function deliverPush(
  context: BrowserContext,
  page: Page,
  registrationId: string,
  data: unknown,
): Promise<void> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(page.url()).origin,
    registrationId,
    data: JSON.stringify(data),
  });
}

/**
 * The notifications the worker shows, for polling: waitForFunction counts an async
 * predicate's promise as truthy (it once answered before the notification was shown).
 */
export const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const shown = (await registration?.getNotifications()) ?? [];
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });
