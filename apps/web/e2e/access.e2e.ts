import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './axe.ts';
import { boardShown, isOver, offered, synced } from './drive.ts';
import { e2eSuite, seeded } from './suite.ts';
import { centred, choose, nextActor, pick } from './turns.ts';

const suite = e2eSuite('access', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });
const { shot } = suite;

async function newContext(options: BrowserContextOptions = {}) {
  // axe is injected as an inline script, which the pages' policy refuses: a test tool, not the app.
  return suite.context({ bypassCSP: true, ...options });
}

/** Creates a match from the start page and returns its invite and spectator links. */
async function createMatch(page: Page, name: string) {
  await page.goto('/');
  await page.getByLabel('Your name').fill(name);
  await page.getByText('More options').click();
  await page.getByLabel('the US', { exact: true }).check();
  await page.getByRole('button', { name: 'Create the match' }).click();
  const invite = await page.getByLabel('Invite link').inputValue();
  const spectate = await page.getByLabel('Spectator link').inputValue();
  await page.getByRole('button', { name: 'Go to the table' }).click();
  await synced(page);
  await boardShown(page);
  return { invite, spectate };
}

async function join(page: Page, invite: string, name: string) {
  await page.goto(invite);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Take the seat and play' }).click();
  await synced(page);
  await boardShown(page);
}

describe('accessibility in the browser', () => {
  it.each(['light', 'dark'] as const)(
    'has no serious or critical axe finding on the home, rules, tutorial, hot-seat, match and spectator pages, in the %s theme',
    async (colorScheme) => {
      const context = await newContext({ viewport: { width: 1280, height: 900 }, colorScheme });
      const page = await context.newPage();
      const findings: Record<string, string[]> = {};

      await page.goto('/');
      await page.getByRole('heading', { name: 'Public matches to watch' }).waitFor();
      await page.getByRole('heading', { name: 'Open challenges' }).waitFor();
      findings.home = await audit(page);
      await shot(page, `home-${colorScheme}`);

      await page.goto('/rules');
      await page.getByRole('heading', { name: 'The cards of this deck' }).waitFor();
      findings.rules = await audit(page);

      await page.goto('/tutorial');
      await page.locator('[data-hint]').waitFor();
      await boardShown(page);
      findings.tutorial = await audit(page);

      await page.goto('/hotseat');
      await page.getByRole('button', { name: 'Start the game' }).click();
      await page.locator('[data-pass]').click();
      await boardShown(page);
      findings.hotseat = await audit(page);

      const { invite, spectate } = await createMatch(page, 'Ann');
      // A second browser: this one holds Ann's seat.
      const guest = await (
        await newContext({ viewport: { width: 1280, height: 900 }, colorScheme })
      ).newPage();
      await join(guest, invite, 'Boris');
      // The chat as it is read: a quick phrase, a line of free text and a refusal in its red.
      await page.getByRole('button', { name: 'Good luck' }).click();
      await guest.getByRole('textbox', { name: 'Message' }).fill('Hello Ann');
      await guest.getByRole('button', { name: 'Send' }).click();
      await guest.locator('.chat-lines li', { hasText: 'Hello Ann' }).waitFor();
      await guest.getByRole('textbox', { name: 'Message' }).fill('<b>hi</b>');
      await guest.getByRole('button', { name: 'Send' }).click();
      await guest.locator('[data-chat-refusal]').waitFor();
      findings.match = await audit(guest);
      await shot(guest, `table-${colorScheme}`);
      // Every tab of the side column, each read in its turn.
      for (const tab of await guest.getByRole('tab').all()) {
        await tab.click();
        const panel = (await tab.getAttribute('data-tab')) as string;
        await guest.locator(`[role="tabpanel"][data-panel="${panel}"]:not([hidden])`).waitFor();
        findings[`match tab ${panel}`] = await audit(guest);
      }

      const watcher = await context.newPage();
      await watcher.goto(spectate);
      await synced(watcher);
      await boardShown(watcher);
      findings.spectator = await audit(watcher);

      expect(findings).toEqual({
        home: [],
        rules: [],
        tutorial: [],
        hotseat: [],
        match: [],
        'match tab chat': [],
        'match tab log': [],
        'match tab regions': [],
        'match tab options': [],
        spectator: [],
      });
    },
  );

  it('plays a whole hot-seat game with the keyboard alone', async () => {
    const context = await newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto('/hotseat');
    await page.getByRole('button', { name: 'Start the game' }).waitFor();
    const random = seeded(1961);

    /** Moves the focus to the element marked data-target with Tab or Shift+Tab, then presses Enter. */
    const pressTarget = async () => {
      for (let presses = 0; presses < 400; presses++) {
        const where = await page.evaluate(() => {
          const target = document.querySelector('[data-target]');
          const active = document.activeElement;
          if (!target) return 'gone';
          if (active === target) return 'here';
          if (!active || active === document.body) return 'after';
          return active.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING
            ? 'after'
            : 'before';
        });
        if (where === 'gone') throw new Error('the chosen control disappeared');
        if (where === 'here') {
          await page.keyboard.press('Enter');
          return;
        }
        await page.keyboard.press(where === 'after' ? 'Tab' : 'Shift+Tab');
      }
      throw new Error('the chosen control cannot be reached with Tab');
    };

    const mark = (selector: string, index: number) =>
      page.evaluate(
        ([s, i]) => {
          document.querySelector('[data-target]')?.removeAttribute('data-target');
          document.querySelectorAll(s as string)[i as number]?.setAttribute('data-target', '');
        },
        [selector, index] as const,
      );

    await mark('button[type="submit"]', 0);
    await pressTarget();
    let steps = 0;
    for (; steps < 2000 && !(await isOver(page)); steps++) {
      if ((await page.locator('[data-pass]').count()) > 0) {
        await mark('[data-pass]', 0);
      } else {
        const choices = await offered(page);
        expect(choices.length).toBeGreaterThan(0);
        await mark('[data-choice]:not([disabled])', pick(choices, random).index);
      }
      await pressTarget();
    }
    await page.getByRole('region', { name: 'Result' }).waitFor();
    await shot(page, 'keyboard-hotseat-end');
    console.log(`keyboard: a hot-seat game in ${steps} choices`);
  });
});

/** The notes on the table's cards (what a tap does), each inside its card's face and not cut. */
const cardNotes = (page: Page) =>
  page.$$eval('.board .card-face .card-note', (notes) =>
    notes.map((note) => {
      const face = note.closest('.card-face') as HTMLElement;
      const [n, f] = [note.getBoundingClientRect(), face.getBoundingClientRect()];
      return {
        card: face.closest('[data-card]')?.getAttribute('data-card'),
        inside:
          n.top >= f.top && n.bottom <= f.bottom - 1 && n.left >= f.left && n.right <= f.right,
        whole: note.scrollWidth <= note.clientWidth,
      };
    }),
  );

describe('a phone', () => {
  it('plays a whole online match on a 390x844 touch screen', async () => {
    const phone = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
    const [annContext, borisContext] = [await newContext(phone), await newContext(phone)];
    const ann = await annContext.newPage();
    const boris = await borisContext.newPage();
    const { invite } = await createMatch(ann, 'Ann');
    await join(boris, invite, 'Boris');
    await shot(ann, 'phone-1-start');

    const random = seeded(390);
    const players = [ann, boris];
    let taps = 0;
    let notes = 0;
    for (; taps < 1000; taps++) {
      const actor = await nextActor(players);
      if (!actor) break;
      const { page } = actor;
      const choice = pick(actor.choices, random);
      await centred(page, choice);
      await choose(page, choice, { tap: true });
      if (taps === 12) await shot(page, 'phone-2-midgame');
      // What a tap on a card would do is written on it whole, inside the card.
      const written = await cardNotes(page);
      if (notes === 0 && written.length > 0) await shot(page, 'phone-2-card-notes');
      for (const note of written) {
        expect(note, `the note on ${note.card}`).toMatchObject({ inside: true, whole: true });
        notes += 1;
      }
    }
    expect(notes).toBeGreaterThan(0);
    for (const page of players) await page.getByRole('region', { name: 'Result' }).waitFor();
    // Nothing sticks out sideways: the page itself never scrolls horizontally on the phone.
    for (const page of players) {
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        390,
      );
    }
    await shot(ann, 'phone-3-end-host');
    await shot(boris, 'phone-3-end-guest');
    console.log(`phone: ${taps} taps to the end`);
  });
});
