import type { Page } from 'playwright-core';

/** Reads what the match page shows: used by the end-to-end test and the time-to-board bench. */
export const boardShown = (page: Page) =>
  page.locator('section[aria-label="The table"] [data-card]').first().waitFor({ timeout: 15_000 });

export const synced = (page: Page) =>
  page.locator('main[data-synced="true"]').waitFor({ timeout: 15_000 });

export const stateID = async (page: Page) =>
  Number(await page.locator('main.match-page').getAttribute('data-state-id'));

export const tableCards = (page: Page) =>
  page
    .locator('section[aria-label="The table"] [data-card]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-card') as string));

export const isOver = async (page: Page) =>
  (await page.locator('section[aria-label="Result"]').count()) > 0;

/**
 * Goes to the winner past the final scoring's show, as a player who does not wait for it would:
 * with Skip when the show plays (a match decided on the track has none).
 */
export async function skipToResult(page: Page): Promise<void> {
  const told = page.locator('section[aria-label="Result"][data-revealed="true"]');
  const skip = page.locator('section[aria-label="Result"] [data-skip-show]');
  await page.locator('section[aria-label="Result"]').waitFor();
  if ((await told.count()) === 0 && (await skip.count()) > 0) await skip.click();
  await told.waitFor();
}

export const refusal = async (page: Page) => {
  const banner = page.locator('[data-refusal]');
  return (await banner.count()) > 0 ? await banner.first().textContent() : null;
};

/** The choices the UI offers this page now (enabled controls marked data-choice). */
export const offered = (page: Page) =>
  page.locator('[data-choice]:not([disabled])').evaluateAll((els) =>
    els.map((e, index) => ({
      index,
      kind: e.getAttribute('data-choice') as string,
      label: (e.textContent ?? '').trim().slice(0, 60),
    })),
  );

/**
 * Resolves once every animation that ends has ended (a card's flight, a scoring's light, a
 * beat fading in): a screenshot then shows where things are, not where they pass through.
 */
export const motionDone = (page: Page) =>
  page.evaluate(async () => {
    for (;;) {
      const running = document
        .getAnimations()
        .filter(
          (a) => a.playState === 'running' && a.effect?.getComputedTiming().endTime !== Infinity,
        );
      if (running.length === 0) return;
      await Promise.all(running.map((a) => a.finished.catch(() => undefined)));
    }
  });

/** What the lobby answers for a new match. */
export interface CreatedMatch {
  matchID: string;
  links: { invite: string; spectate: string };
}

/**
 * A match against the easy computer, opened in `page` as its creator: Ann, the USSR, who
 * chooses who goes first. Her seat is put where the web client keeps it, as a join would.
 */
export async function openAgainstComputer(page: Page, serverUrl: string): Promise<CreatedMatch> {
  const response = await fetch(`${serverUrl}/api/matches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Ann', side: 'USSR', opponent: 'easy' }),
  });
  const created = (await response.json()) as CreatedMatch & Record<string, unknown>;
  await page.goto('/');
  await page.evaluate(
    ([key, value]) => localStorage.setItem(key as string, value as string),
    [`iron-curtain:seat:${created.matchID}`, JSON.stringify({ ...created, name: 'Ann' })],
  );
  await page.goto(`/match/${created.matchID}`);
  await synced(page);
  await boardShown(page);
  return created;
}

const decider = (page: Page) =>
  page.locator('section.prompt[data-decider]').getAttribute('data-decider');

/**
 * Plays `seat`'s whole turn at the table, clicking only what the UI offers, until the decision
 * passes to the other seat (the table's prompt names it).
 */
export async function playTurn(page: Page, seat: string, random: () => number): Promise<void> {
  await page.waitForFunction(
    (s) => document.querySelector('section.prompt')?.getAttribute('data-decider') === s,
    seat,
  );
  for (let clicks = 0; (await decider(page)) === seat; clicks++) {
    if (clicks > 200) throw new Error(`seat ${seat} is still deciding after 200 clicks`);
    const refused = await refusal(page);
    if (refused) throw new Error(`the server refused a choice the UI offered: ${refused}`);
    const choices = await offered(page);
    if (choices.length === 0) {
      await page.waitForTimeout(25);
      continue;
    }
    const cells = choices.filter((c) => c.kind === 'cell');
    const pool = cells.length > 0 ? cells : choices;
    const pick = pool[Math.floor(random() * pool.length)] as (typeof pool)[number];
    const target = page.locator('[data-choice]:not([disabled])').nth(pick.index);
    // On a phone the docked decision and hand cover the table's lower part, where Playwright's
    // own scrolling leaves a card: bring a table's card to the top first, as a player scrolls.
    await target.evaluate((el) => {
      if (!el.closest('.match-dock')) el.scrollIntoView({ block: 'start', inline: 'center' });
    });
    await target.click();
    await page.locator('main[data-pending="false"]').waitFor();
  }
}
