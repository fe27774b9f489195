import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boardShown, motionDone, synced } from './drive.ts';
import { expectPushShown, turnNotificationsOn } from './push-delivery.ts';
import { e2eSuite, seeded } from './suite.ts';
import { playTurn } from './turns.ts';

// A scripted player clicks faster than a person: lift the per-socket rate limit.
const suite = e2eSuite('correspondence', {
  RATE_LIMIT_PER_SECOND: '100',
  RATE_LIMIT_BURST: '200',
});
const { shot } = suite;

const SENTENCE = 'It is your turn in Iron Curtain.';
const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** The running seat's clock at the table counts a correspondence turn in days. */
async function expectDaysLeft(page: Page): Promise<void> {
  const running = page.locator('.seat-clock[data-running="true"]');
  expect(await running.count()).toBe(1);
  expect(await running.textContent()).toMatch(/\b[23] d \d+:\d\d:\d\d$/);
  // Beside it, when the turn ends as a date and time, in the running seat's panel only, on
  // one line (on a phone the date alone, the sentence for screen readers).
  const ends = page.locator('.player-panel .seat-deadline');
  expect(await ends.count()).toBe(1);
  expect(await ends.locator('.seat-deadline-words').textContent()).toMatch(
    /^Turn ends \w+, \w+ \d+, \d{1,2}:\d\d [AP]M$/,
  );
  expect(await ends.evaluate((e) => e.getBoundingClientRect().height)).toBeLessThan(24);
  expect(
    await ends.evaluate((e) =>
      e.closest('.player-panel')?.querySelector('.seat-clock')?.getAttribute('data-running'),
    ),
  ).toBe('true');
}

/** Comes back to the match from the home page's My games, where it waits for this player first. */
async function backThroughMyGames(context: BrowserContext, matchID: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto('/');
  const row = page.locator(`.my-game[data-match="${matchID}"]`);
  await row.getByText('Your turn').waitFor();
  expect(await row.getAttribute('data-turn')).toBe('you');
  expect(await row.textContent()).toMatch(
    /Time left for this turn: [23] d \d+:\d\d:\d\d, until \w+, \w+ \d+, \d{1,2}:\d\d [AP]M/,
  );
  return page;
}

async function openFromMyGames(page: Page, matchID: string): Promise<void> {
  await page.locator(`.my-game[data-match="${matchID}"]`).getByRole('link').click();
  await page.waitForURL(new RegExp(`/match/${matchID}$`));
  await synced(page);
  await boardShown(page);
}

describe('correspondence play in the browser', () => {
  it('two players start a 3-day match, each plays, leaves, comes back through My games and plays on; a push shows a notification; a third browser takes the games over', async () => {
    const random = seeded(32);
    const annBrowser = await suite.context({ viewport: DESKTOP });
    await annBrowser.grantPermissions(['notifications'], { origin: suite.server.url });
    const borisBrowser = await suite.context({ viewport: PHONE });

    // Ann creates a correspondence match, three days per turn, as the USSR (who decides first).
    let ann = await annBrowser.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByText('More options').click();
    await ann.getByLabel('the USSR', { exact: true }).check();
    await ann.getByLabel('Clock').selectOption('d3');
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    await synced(ann);
    const matchID = new URL(ann.url()).pathname.split('/').pop() as string;

    // Boris opens the invite on a phone: it says how the match is timed.
    let boris = await borisBrowser.newPage();
    await boris.goto(invite);
    await boris.getByText('A correspondence match: 3 days per turn.').waitFor();
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await boris.waitForURL(/\/match\//);
    await synced(boris);
    await boardShown(boris);
    await boardShown(ann);

    // Ann turns notifications on at the table: the service worker registers.
    const registrationId = await turnNotificationsOn(annBrowser, ann);

    // Each plays a turn, then closes the page.
    await playTurn(ann, '0', random);
    await boris.locator('section.prompt[data-decider="1"]').waitFor();
    await motionDone(boris);
    await expectDaysLeft(boris);
    await shot(boris, 'table-phone', { fullPage: false });
    await playTurn(boris, '1', random);
    await ann.locator('section.prompt[data-decider="0"]').waitFor();
    await motionDone(ann);
    await expectDaysLeft(ann);
    await shot(ann, 'table-desktop', { fullPage: false });
    await ann.close();
    await boris.close();

    // Ann comes back through My games; a push delivered meanwhile shows her the sentence.
    ann = await backThroughMyGames(annBrowser, matchID);
    await expectPushShown(annBrowser, ann, registrationId, { matchID, text: SENTENCE }, [
      { title: 'Iron Curtain', body: SENTENCE, tag: matchID, data: { matchID } },
    ]);
    // Headless Chromium cannot click a notification (no DevTools command does, and a click
    // made inside the worker is not the user's): test/service-worker.test.ts covers the click.
    await shot(ann, 'my-games-desktop', { fullPage: false });
    await ann.setViewportSize(PHONE);
    await shot(ann, 'my-games-phone', { fullPage: false });
    await ann.setViewportSize(DESKTOP);
    await openFromMyGames(ann, matchID);
    await playTurn(ann, '0', random);

    // Boris comes back through My games and plays his next turn.
    boris = await backThroughMyGames(borisBrowser, matchID);
    await openFromMyGames(boris, matchID);
    await playTurn(boris, '1', random);

    // A third browser takes Boris's games over with the one-time code and lists the match.
    const home = await borisBrowser.newPage();
    await home.goto('/');
    await home.getByRole('button', { name: 'Take my games to another device' }).click();
    const code = (await home.locator('.handover-code').getAttribute('data-code')) as string;
    const tablet = await (await suite.context({ viewport: DESKTOP })).newPage();
    await tablet.goto('/');
    await tablet.getByText('Continue games from another device').click();
    await tablet.getByLabel('Code').fill(code);
    await tablet.getByRole('button', { name: 'Take the games' }).click();
    await tablet.getByText('1 game taken over.').waitFor();
    const row = tablet.locator(`.my-game[data-match="${matchID}"]`);
    await row.getByText('Ann to play').waitFor();
    expect(await row.textContent()).toContain('You (US) against Ann (USSR)');
  });
});
