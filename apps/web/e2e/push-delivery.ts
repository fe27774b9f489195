import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Web Push in headless Chromium, through the DevTools protocol: there is no push service to
 * reach here, so a test delivers the message to the page's service worker itself.
 */

/** Turns notifications on at the table and answers the service worker's registration id. */
export async function turnNotificationsOn(context: BrowserContext, page: Page): Promise<string> {
  const cdp = await context.newCDPSession(page);
  const worker = new URL('/sw.js', page.url()).href;
  const activated = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      const version = versions.find((v) => v.scriptURL === worker && v.status === 'activated');
      if (version) resolve(version.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await page.getByRole('button', { name: 'Notify me when it is my turn' }).click();
  return activated;
}

/** Delivers a push with `data` to the worker registered as `registrationId`. */
async function deliverPush(
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
 * Delivers a push with `data` and waits until the worker shows it as the notification
 * expected. The protocol's delivery answers before the push event runs and says nothing of it;
 * one CI run in many saw no notification from a single delivery, so while none is shown the
 * push is delivered again (the match's tag makes a second one replace the first).
 */
export async function expectPushShown(
  context: BrowserContext,
  page: Page,
  registrationId: string,
  data: unknown,
  expected: unknown,
): Promise<void> {
  await expect
    .poll(
      async () => {
        const shown = await shownNotifications(page);
        if (shown.length === 0) await deliverPush(context, page, registrationId, data);
        return shown;
      },
      { timeout: 20_000, interval: 2_000 },
    )
    .toEqual(expected);
}

/**
 * The notifications the worker shows, for polling: waitForFunction counts an async
 * predicate's promise as truthy (it once answered before the notification was shown).
 */
const shownNotifications = (page: Page) =>
  page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    const shown = (await registration?.getNotifications()) ?? [];
    return shown.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
  });
