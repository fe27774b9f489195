import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { audit } from './axe.ts';
import { boardShown, motionDone, openAgainstComputer, synced } from './drive.ts';
import { REPO } from './harness.ts';
import { tableLegibility } from './layout.ts';
import { e2eSuite } from './suite.ts';
import { choose, nextActor, pick } from './turns.ts';

// The match table of issue 13: legible and playable on a phone, motion that explains.
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const DESKTOP = { viewport: { width: 1366, height: 900 } };

const suite = e2eSuite('table', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });

/** What the player sees once the table has settled: the viewport, after every animation. */
async function shot(page: Page, name: string) {
  await motionDone(page);
  await suite.shot(page, name, { fullPage: false });
}

async function newContext(options: BrowserContextOptions) {
  // axe is injected as an inline script, which the pages' policy refuses: a test tool, not the app.
  const context = await suite.context({ bypassCSP: true, ...options });
  await context.addInitScript(`localStorage.setItem('iron-curtain:language', 'en')`);
  return context;
}

/** The rendered size (font size times the table's zoom) of every card name and command value shown. */
const textSizes = (page: Page) =>
  page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('main .card-name, main .card-command')) {
      if (el.getClientRects().length === 0 || el.closest('.sr-only')) continue;
      const scale = el.getBoundingClientRect().width / el.offsetWidth || 1;
      out.push({ text: el.textContent.trim(), px: Number.parseFloat(getComputedStyle(el).fontSize) * scale });
    }
    return out;
  })()`) as Promise<{ text: string; px: number }[]>;

/** Every control a finger uses smaller than 44x44 CSS px, as rendered. */
const smallTargets = (page: Page) =>
  page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll('main button, main a[href], main input, main select, main [role="tab"]')) {
      if (el.closest('.sr-only') || el.getClientRects().length === 0) continue;
      if (getComputedStyle(el).visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width < 44 - 0.5 || r.height < 44 - 0.5) out.push(el.tagName + ' "' + (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 40) + '" ' + Math.round(r.width) + 'x' + Math.round(r.height));
    }
    return out;
  })()`) as Promise<string[]>;

/** Cards whose two piles of cubes touch each other or reach past the card's edge. */
const crampedCubes = (page: Page) =>
  page.locator('.board-grid .card-face').evaluateAll((faces) =>
    faces.flatMap((face) => {
      const [us, ussr] = Array.from(face.querySelectorAll('.cube-pile')).map((p) =>
        p.getBoundingClientRect(),
      );
      const edge = face.getBoundingClientRect();
      const card = face.closest('[data-card]')?.getAttribute('data-card');
      return us &&
        ussr &&
        (us.right + 2 > ussr.left || us.left < edge.left || ussr.right > edge.right)
        ? [
            `${card}: US ${Math.round(us.left)}-${Math.round(us.right)}, USSR ${Math.round(ussr.left)}-${Math.round(ussr.right)}, card ${Math.round(edge.left)}-${Math.round(edge.right)}`,
          ]
        : [];
    }),
  );

/** Ann, the USSR, chooses to go first. */
const goFirst = (page: Page) => page.getByRole('button', { name: 'The USSR goes first' }).click();

/** Plays the first card of the hand to its first cell; returns the card's id once on the table. */
async function playACard(page: Page): Promise<string> {
  const hand = page.locator('.own-hand [data-choice="hand"]:not([disabled])').first();
  await hand.waitFor();
  const card = (await hand.getAttribute('data-card')) as string;
  await hand.click();
  await page.locator('.legal-cell').first().click();
  await page.locator(`.board-grid [data-card="${card}"]`).waitFor();
  return card;
}

/**
 * Plays on, with the first choice offered each time, until Ann is asked for a card from her
 * hand again: the deal is the server's, so the card she played may leave her cubes to place, or
 * the computer an event to decide, and while she places cubes a tap on a table card places one
 * there instead of showing the card.
 */
async function untilAnnPlaysACard(page: Page): Promise<void> {
  const hand = page.locator('.own-hand [data-choice="hand"]:not([disabled])').first();
  const finish = page.getByRole('button', { name: /^Finish removing$/ });
  const target = page.locator('.board-grid .table-card.target:not([disabled])').first();
  // Cubes are drafted on the table, then sent with one confirm.
  const confirm = page.locator('[data-confirm-cubes]:not([disabled])');
  const choice = page.locator('.match-dock .prompt .choices button:not([disabled])').first();
  for (let step = 0; step < 40; step++) {
    if (await hand.isVisible()) return;
    const asked = await page.locator('.match-dock').textContent();
    if (await finish.isVisible()) await finish.tap();
    else if (await target.isVisible()) await target.tap();
    else if (await confirm.isVisible()) await confirm.tap();
    else if (await choice.isVisible()) await choice.tap();
    // Ann's answer, or the computer's move, changes what the dock asks.
    await page.waitForFunction(
      (before) => document.querySelector('.match-dock')?.textContent !== before,
      asked,
    );
  }
  throw new Error('Ann was not asked for a card again');
}

describe('the match table on a phone', () => {
  it('shows names and command values at 12 px or more, 44 px targets, and the table, decision and hand on one screen', async () => {
    const ann = await (await newContext(PHONE)).newPage();
    const created = await openAgainstComputer(ann, suite.server.url);
    // The USSR chooses who goes first: Ann does, so she holds the decision, then a hand to play.
    await goFirst(ann);
    await ann.locator('.own-hand [data-choice="hand"]:not([disabled])').first().waitFor();
    await shot(ann, 'phone-start');

    const sizes = await textSizes(ann);
    expect(sizes.length).toBeGreaterThan(5);
    expect(sizes.filter((s) => s.px < 12)).toEqual([]);
    expect(await smallTargets(ann)).toEqual([]);

    // One screen: with the table at the top, the decision and the hand are in view below it.
    await ann.locator('.board').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    const boxes = await ann.evaluate(() =>
      ['.board', '.match-dock .prompt', '.own-hand .hand-cards'].map((sel) => {
        const r = (document.querySelector(sel) as Element).getBoundingClientRect();
        return { sel, top: r.top, bottom: r.bottom };
      }),
    );
    for (const box of boxes) {
      expect(box.top, box.sel).toBeGreaterThanOrEqual(-1);
      expect(box.bottom, box.sel).toBeLessThanOrEqual(844 - 56 + 1);
    }
    // The regions and the log are a tap away, in a sheet.
    await ann.getByRole('tab', { name: 'Regions' }).tap();
    await ann.locator('.panel-sheet .regions').waitFor();
    await shot(ann, 'phone-regions');
    expect(await audit(ann)).toEqual([]);
    await ann.getByRole('button', { name: 'Close' }).tap();

    await playACard(ann);
    await shot(ann, 'phone-played');
    expect((await textSizes(ann)).filter((s) => s.px < 12)).toEqual([]);
    await ann.locator('.board-grid.compact').waitFor();
    // A spectator's phone, as legible.
    const watcher = await (await newContext(PHONE)).newPage();
    await watcher.goto(created.links.spectate);
    await synced(watcher);
    await boardShown(watcher);
    expect((await textSizes(watcher)).filter((s) => s.px < 12)).toEqual([]);
    expect(await smallTargets(watcher)).toEqual([]);
    expect(await audit(watcher)).toEqual([]);
    await shot(watcher, 'phone-spectator');

    // The table's compact faces leave out the event: a tap shows the whole card, Close folds it.
    await untilAnnPlaysACard(ann);
    const europe = ann.locator('.board-grid button.table-card[data-card="europe"]');
    await europe.tap();
    const zoom = ann.getByRole('dialog', { name: 'Europe' });
    expect(await zoom.locator('.event').textContent()).toBe('No event');
    await shot(ann, 'phone-card-zoom');
    await zoom.getByRole('button', { name: 'Close' }).tap();
    expect(await ann.getByRole('dialog').count()).toBe(0);
    // From the keyboard: Tab never leaves the open card, Escape closes it, the card has the focus again.
    await europe.focus();
    await ann.keyboard.press('Enter');
    await zoom.waitFor();
    const focusOutside = () =>
      ann.evaluate(() => {
        const now = document.activeElement;
        const open = document.querySelector('dialog[open]');
        return now !== document.body && !open?.contains(now) ? now?.outerHTML.slice(0, 80) : null;
      });
    for (let tab = 0; tab < 4; tab++) {
      await ann.keyboard.press('Tab');
      expect(await focusOutside()).toBeNull();
    }
    await ann.keyboard.press('Shift+Tab');
    expect(await focusOutside()).toBeNull();
    await ann.keyboard.press('Escape');
    await zoom.waitFor({ state: 'detached' });
    expect(await europe.evaluate((el) => el === document.activeElement)).toBe(true);
    // Close, then the card again at once, before the dialog's close event: the card shows.
    await europe.tap();
    await zoom.waitFor();
    await ann.evaluate(() => {
      (document.querySelector('dialog[open] button') as HTMLButtonElement).click();
      (document.querySelector('.board-grid [data-card="europe"]') as HTMLButtonElement).click();
    });
    await zoom.waitFor();
    expect(await zoom.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
  });
});

describe('motion', () => {
  it('flies a played card to its cell under normal motion, and not under reduced motion', async () => {
    for (const reducedMotion of ['no-preference', 'reduce'] as const) {
      const page = await (await newContext({ ...DESKTOP, reducedMotion })).newPage();
      await openAgainstComputer(page, suite.server.url);
      await goFirst(page);
      const card = await playACard(page);
      const played = page.locator(`.board-grid [data-card="${card}"]`);
      const flown = await played.getAttribute('data-motion');
      expect(flown, reducedMotion).toBe(reducedMotion === 'reduce' ? null : 'flown');
      // The computer's card comes from its side of the table too.
      if (reducedMotion === 'no-preference') await shot(page, 'desktop-played');
    }
  });
});

/** Plays against the computer to the end, clicking what the table offers; shoots a region scoring. */
async function playToTheEnd(page: Page) {
  let scoringShot = false;
  const shootAScoring = async () => {
    if (!scoringShot && (await page.locator('.table-card.scoring').count()) > 0) {
      scoringShot = true;
      await shot(page, 'desktop-scoring');
    }
  };
  for (let clicks = 0; clicks < 400; clicks++) {
    const actor = await nextActor([page], { meanwhile: shootAScoring });
    if (!actor) return;
    await choose(page, pick(actor.choices));
  }
  throw new Error('the match did not end');
}

/** The sizes the end of a match is checked at: two desktops and a phone. */
const END_SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
] as const;

/** Where the stage's part is against the window, and whether its own box must scroll to show it all. */
const stagePart = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return {
      top: Math.round(r.top),
      bottom: Math.round(r.bottom),
      left: Math.round(r.left),
      right: Math.round(r.right),
      scrolls: el.scrollHeight > el.clientHeight + 1,
    };
  });

/** The stage's part is whole inside the window as the page stands, at each size; shot at each. */
async function inViewAtEverySize(page: Page, selector: string, name: string, whole: boolean) {
  for (const size of END_SIZES) {
    await page.setViewportSize(size);
    await motionDone(page);
    const box = await stagePart(page, selector);
    const where = `${name} at ${size.width}x${size.height}`;
    console.log(`e2e: ${where}: ${JSON.stringify(box)}`);
    expect(box.top, `${where}: top`).toBeGreaterThanOrEqual(0);
    expect(box.left, `${where}: left`).toBeGreaterThanOrEqual(0);
    expect(box.bottom, `${where}: bottom`).toBeLessThanOrEqual(size.height);
    expect(box.right, `${where}: right`).toBeLessThanOrEqual(size.width);
    // Read where it is, not by scrolling the page or hunting inside a box.
    expect(await page.evaluate(() => scrollY), `${where}: the page not scrolled`).toBe(0);
    if (whole && size.width > 600) expect(box.scrolls, `${where}: no scroll inside`).toBe(false);
    await shot(page, `${name}-${size.width}x${size.height}`);
  }
  await page.setViewportSize(END_SIZES[0]);
}

/** What the keyboard is on: inside the stage (and which part), or elsewhere. */
const keyboardOn = (page: Page) =>
  page.evaluate(() => {
    const now = document.activeElement;
    if (!now || now === document.body) return 'nowhere';
    const stage = now.closest('.end-stage');
    if (!stage) return 'outside';
    if (now.closest('.stage-analysis')) return 'analysis';
    if (now.hasAttribute('data-open-analysis')) return 'analysis button';
    return `${stage.getAttribute('data-stage')} ${now.tagName.toLowerCase()}`;
  });

/** axe's serious findings with the stage as it is, in the light and the dark theme (shot in each). */
async function auditBothThemes(page: Page, name: string): Promise<Record<string, string[]>> {
  const found: Record<string, string[]> = {};
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    found[colorScheme] = await audit(page);
    await shot(page, `${name}-${colorScheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

/** A match the computer's deal decided on the track has no final scoring: the next one may. */
const MATCHES_FOR_A_FINAL_SCORING = 6;

describe('a whole match against the computer on a desktop', () => {
  it('keeps the live table legible at 1366 px to the end, and plays the end over the table in view at 1366x768, 1920x1080 and 390x844: the final scoring, the result, the analysis, the keyboard following', async () => {
    const context = await newContext({ viewport: { width: 1366, height: 768 } });
    for (let tries = 1; tries <= MATCHES_FOR_A_FINAL_SCORING; tries++) {
      const page = await context.newPage();
      const created = await openAgainstComputer(page, suite.server.url);
      const watcher = await (await newContext({ viewport: END_SIZES[0] })).newPage();
      await watcher.goto(created.links.spectate);
      await synced(watcher);
      await goFirst(page);
      if (tries === 1) await shot(page, 'desktop-start');
      await playToTheEnd(page);
      await page.getByRole('region', { name: 'Result' }).waitFor();
      // The show waits for the player from here on, so it is measured where it stands.
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.locator('.board-frame').evaluate((el) => el.scrollIntoView({ block: 'end' }));
      const legible = await tableLegibility(page);
      console.log(`e2e: live table at 1366x768: ${JSON.stringify(legible)}`);
      await shot(page, 'desktop-end-table');
      expect(legible.name).toBeGreaterThanOrEqual(12);
      expect(legible.command).toBeGreaterThanOrEqual(12);
      expect(legible.whole).toBe(true);
      const played = (await page.locator('.end-stage').getAttribute('data-stage')) === 'show';
      console.log(`e2e: match ${tries} ended ${played ? 'with' : 'without'} a final scoring`);
      if (played || tries === MATCHES_FOR_A_FINAL_SCORING) {
        expect(played, `a final scoring in ${tries} matches`).toBe(true);
        await endStage(page, watcher);
        return;
      }
      await page.close();
      await watcher.context().close();
    }
    // Up to six whole matches, each about 40 s on a busy machine.
  }, 600_000);
});

/**
 * The end on the table's own area: the final scoring (when there is one) over the table, which
 * stays whole behind it, with the keyboard in it; Escape skips to the result's banner; the
 * analysis opens over the table and closes back to its button; Show the table gives the table
 * back, legible; the spectator's end is the same without the rematch. All in view at every size,
 * with no serious axe finding in either theme.
 */
async function endStage(page: Page, watcher: Page) {
  const result = page.getByRole('region', { name: 'Result' });
  const stage = page.locator('.end-stage');
  if ((await stage.getAttribute('data-stage')) === 'show') {
    expect(await keyboardOn(page)).toBe('show h2');
    await inViewAtEverySize(page, '.end-stage .stage-panel', 'end-final-scoring', true);
    const frame = await stagePart(page, '.board-frame');
    const over = await stagePart(page, '.end-stage');
    expect(over.top).toBeLessThanOrEqual(frame.top);
    expect(over.bottom).toBeGreaterThanOrEqual(frame.bottom);
    expect(await auditBothThemes(page, 'end-final-scoring-themes')).toEqual({
      light: [],
      dark: [],
    });
    // Escape skips to the result, the keyboard still on the stage.
    await page.keyboard.press('Escape');
  }
  await page.locator('.end-stage[data-stage="banner"]').waitFor();
  expect(await result.getAttribute('data-revealed')).toBe('true');
  expect(await keyboardOn(page)).toBe('banner h2');
  expect(await result.locator('h2').textContent()).toMatch(/\) wins$/);
  await inViewAtEverySize(page, '.end-stage .stage-banner', 'end-result', true);
  for (const name of ['Analysis', 'Rematch', 'Show the table'])
    expect(await result.getByRole('button', { name, exact: true }).count(), name).toBe(1);

  // The analysis opens over the table from the keyboard, and closes back to its button.
  await page.keyboard.press('Tab');
  expect(await keyboardOn(page)).toBe('analysis button');
  await page.keyboard.press('Enter');
  const panel = page.getByRole('dialog', { name: 'Analysis of the match' });
  await panel.waitFor();
  expect(await keyboardOn(page)).toBe('analysis');
  await panel.getByRole('button', { name: 'Analyse the match' }).waitFor();
  await inViewAtEverySize(page, '.end-stage .stage-analysis', 'end-analysis', false);
  await panel.getByLabel('Depth').selectOption('quick');
  await panel.getByRole('button', { name: 'Analyse the match' }).click();
  await panel.getByRole('img', { name: /Chart of the US’s chance to win/ }).waitFor({
    timeout: 180_000,
  });
  expect(await auditBothThemes(page, 'end-analysis-done')).toEqual({ light: [], dark: [] });
  await panel.focus();
  await page.keyboard.press('Escape');
  await panel.waitFor({ state: 'hidden' });
  expect(await keyboardOn(page)).toBe('analysis button');

  // Show the table: the banner goes, the keyboard leaves the stage's banner, the table legible.
  await result.getByRole('button', { name: 'Show the table' }).focus();
  await page.keyboard.press('Enter');
  await page.locator('.end-stage[data-stage="table"]').waitFor();
  expect(['outside', 'table button']).toContain(await keyboardOn(page));
  await expect.poll(async () => (await tableLegibility(page)).whole, { timeout: 5_000 }).toBe(true);
  const shown = await tableLegibility(page);
  expect(shown.name).toBeGreaterThanOrEqual(12);
  expect(shown.command).toBeGreaterThanOrEqual(12);
  await shot(page, 'end-table-shown');
  // The result comes back, and the analysis already run is still there.
  await page.getByRole('button', { name: 'Show the result' }).click();
  expect(await keyboardOn(page)).toBe('banner h2');
  await result.getByRole('button', { name: 'Analysis', exact: true }).click();
  await panel.getByRole('img', { name: /Chart of the US’s chance to win/ }).waitFor();

  // A spectator's table ends the same way, without the players' rematch.
  const seen = watcher.getByRole('region', { name: 'Result' });
  await seen.waitFor();
  await watcher.locator('.end-stage[data-stage="banner"]').waitFor({ timeout: 60_000 });
  expect(await seen.getByRole('button', { name: 'Analysis', exact: true }).count()).toBe(1);
  expect(await seen.getByRole('button', { name: 'Rematch' }).count()).toBe(0);
  await shot(watcher, 'end-spectator');
}

describe('the final scoring', () => {
  it('is shown step by step over the finished table of a record', async () => {
    const page = await (await newContext(DESKTOP)).newPage();
    await page.goto('/replay');
    await page.getByLabel('Record file').setInputFiles({
      name: 'record.json',
      mimeType: 'application/json',
      buffer: fs.readFileSync(
        path.join(REPO, 'packages/game/test/records/fixed-deal-standard.json'),
      ),
    });
    await page.getByRole('button', { name: 'Last' }).click();
    const show = page.locator('.scoring-show');
    await show.waitFor();
    await show.getByRole('button', { name: 'Next step' }).click();
    await show.scrollIntoViewIfNeeded();
    await shot(page, 'desktop-final-scoring');
    // Settled, no card's cubes run into the other side's or past the card (Zaire holds 6 and 3).
    expect(await crampedCubes(page)).toEqual([]);
  });
});
