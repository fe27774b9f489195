import { describe, expect, it } from 'vitest';
import { boardShown, synced } from './drive.ts';
import { e2eSuite } from './suite.ts';

// A short grace period, so the claim is offered within the test.
const suite = e2eSuite('around', { ABANDON_GRACE_SECONDS: '2' });
const { shot } = suite;

describe('around a match in the browser', () => {
  it('shows the clocks and the deck, lets a player claim an abandoned match, and starts a rematch that the spectator follows', async () => {
    const base = { viewport: { width: 1280, height: 900 } };
    const host = await suite.context(base);
    const guest = await suite.context(base);
    const watch = await suite.context(base);

    // 1. Ann creates a match with 5 minutes each; Boris joins; someone watches.
    const ann = await host.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByText('More options').click();
    await ann.getByLabel('the US', { exact: true }).check();
    await ann.getByLabel('Clock').selectOption('5');
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    const spectate = await ann.getByLabel('Spectator link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    const boris = await guest.newPage();
    await boris.goto(invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    await boardShown(boris);
    const watcher = await watch.newPage();
    await watcher.goto(spectate);
    await synced(watcher);

    // 2. Every page shows both clocks and the deck the match is dealt from.
    for (const page of [ann, boris, watcher]) {
      await page
        .getByRole('timer')
        .filter({ hasText: /^US \(Ann\): [45]:\d\d$/ })
        .waitFor();
      await page
        .getByRole('timer')
        .filter({ hasText: /^USSR \(Boris\): [45]:\d\d$/ })
        .waitFor();
      await page.getByText(/^Deck: .+, version /).waitFor();
    }
    await shot(ann, '1-clocks');

    // 3. Boris leaves; after the grace period Ann claims the win.
    const matchURL = boris.url();
    await boris.close();
    await ann.getByText(/Your opponent left/).waitFor();
    const claim = ann.getByRole('button', { name: 'Claim the win' });
    await expect.poll(() => claim.isEnabled(), { timeout: 10_000 }).toBe(true);
    await shot(ann, '2-claim');
    await claim.click();
    for (const page of [ann, watcher]) {
      // Said once, as a sentence (it was once shown twice, and other reasons as a raw code).
      const reason = page.getByText('The USSR was away too long and lost the match.');
      await reason.waitFor();
      expect(await reason.count()).toBe(1);
    }

    // 4. Ann offers a rematch; Boris comes back and accepts; all three move to the new match.
    await ann.getByRole('button', { name: 'Offer a rematch' }).click();
    await ann.getByText(/waiting for your opponent/).waitFor();
    const back = await guest.newPage();
    await back.goto(matchURL);
    await back.getByRole('button', { name: 'Accept the rematch' }).click();
    const oldID = matchURL.split('/').at(-1) as string;
    for (const page of [ann, back]) {
      await page.waitForURL(
        (url) => url.pathname.startsWith('/match/') && !url.pathname.endsWith(oldID),
      );
    }
    await watcher.waitForURL(
      (url) => url.pathname.startsWith('/watch/') && !url.pathname.endsWith(oldID),
    );
    const next = ann.url().split('/').at(-1);
    expect(back.url().endsWith(`/match/${next}`)).toBe(true);
    expect(watcher.url().endsWith(`/watch/${next}`)).toBe(true);
    // Sides swapped: Ann now plays the USSR.
    for (const page of [ann, back, watcher]) {
      await synced(page);
      await page
        .getByRole('timer')
        .filter({ hasText: /^USSR \(Ann\): [45]:\d\d$/ })
        .waitFor();
      await page
        .getByRole('timer')
        .filter({ hasText: /^US \(Boris\): / })
        .waitFor();
    }
    await shot(watcher, '3-rematch-spectator');
    await Promise.all([host.close(), guest.close(), watch.close()]);
  });
});
