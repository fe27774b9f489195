import type { Locator, Page } from 'playwright-core';
import { isOver, offered, refusal, stateID } from './drive.ts';

/**
 * Playing a match through its pages, as the end-to-end tests do: who is to choose, what they
 * pick, and the waits between. Every wait here ends on what a page shows or at a deadline.
 */

export type Choice = Awaited<ReturnType<typeof offered>>[number];

/** How often a wait looks at the pages again. */
const LOOK_EVERY_MS = 25;
/** The longest a match may go with no page offering a choice (the computer thinks, a frame travels). */
const CHOICE_DEADLINE_MS = 20_000;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `check` holds; past `ms`, fails naming `what`. */
export async function until(
  what: string,
  check: () => Promise<boolean>,
  ms = 10_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await pause(LOOK_EVERY_MS);
  }
}

/** Fails at once when the page shows that the server refused a choice its UI offered. */
export async function noRefusal(page: Page): Promise<void> {
  const refused = await refusal(page);
  if (refused) throw new Error(`the server refused a choice the UI offered: ${refused}`);
}

/**
 * The page that offers choices now, and those choices; null once every page shows the result.
 * Fails when the server refused a choice, or when no page offers one for too long. `meanwhile`
 * runs at each look (a test that shoots what passes while it waits).
 */
export async function nextActor(
  players: Page[],
  { ms = CHOICE_DEADLINE_MS, meanwhile }: { ms?: number; meanwhile?: () => Promise<void> } = {},
): Promise<{ page: Page; choices: Choice[] } | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    await meanwhile?.();
    for (const page of players) {
      await noRefusal(page);
      const choices = await offered(page);
      if (choices.length > 0) return { page, choices };
    }
    if ((await Promise.all(players.map(isOver))).every(Boolean)) return null;
    if (Date.now() > deadline) throw new Error('no page offers a choice and the match is not over');
    await pause(LOOK_EVERY_MS);
  }
}

/**
 * What a scripted player picks: a cell of the table when one is offered (it moves the match on),
 * otherwise any choice; at random when given a source of it, else the first.
 */
export function pick(choices: Choice[], random?: () => number): Choice {
  const cells = choices.filter((c) => c.kind === 'cell');
  const pool = cells.length > 0 ? cells : choices;
  const index = random ? Math.floor(random() * pool.length) : 0;
  return pool[index] as Choice;
}

/** The control of an offered choice, as `offered` numbered it. */
const control = (page: Page, choice: Choice): Locator =>
  page.locator('[data-choice]:not([disabled])').nth(choice.index);

/**
 * Centres a choice of the table in the window first: on a phone the docked decision and the hand
 * stay at the window's foot and would cover a card that Playwright's own scrolling leaves at an
 * edge. A choice inside the dock is left where it is.
 */
export const centred = (page: Page, choice: Choice): Promise<void> =>
  control(page, choice).evaluate((el) => {
    if (!el.closest('.match-dock')) el.scrollIntoView({ block: 'center', inline: 'center' });
  });

/** Clicks (or taps) the choice and waits until the server has answered it. */
export async function choose(
  page: Page,
  choice: Choice,
  { tap = false }: { tap?: boolean } = {},
): Promise<void> {
  const target = control(page, choice);
  if (tap) await target.tap();
  else await target.click();
  await page.locator('main[data-pending="false"]').waitFor({ timeout: 15_000 });
}

/** Waits until every page shows the same state id (an update may still be on its way to one). */
export async function sameState(pages: Page[], ms = 15_000): Promise<void> {
  let ids: number[] = [];
  await until(
    'the pages to agree on the state',
    async () => {
      ids = await Promise.all(pages.map(stateID));
      return ids.every((id) => id === ids[0]);
    },
    ms,
  ).catch(() => {
    throw new Error(`the pages disagree on the state: ${ids.join(', ')}`);
  });
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
  for (let clicks = 0; ; clicks++) {
    let choices: Choice[] = [];
    await until(
      `seat ${seat}'s choices, or the other seat's turn`,
      async () => {
        await noRefusal(page);
        if ((await decider(page)) !== seat) return true;
        choices = await offered(page);
        return choices.length > 0;
      },
      20_000,
    );
    if (choices.length === 0) return;
    if (clicks === 200) throw new Error(`seat ${seat} is still deciding after 200 clicks`);
    const choice = pick(choices, random);
    await centred(page, choice);
    await choose(page, choice);
  }
}
