import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  boardShown,
  isOver,
  motionDone,
  openAgainstComputer,
  synced,
  tableCards,
} from './drive.ts';
import { ARTIFACTS, REPO } from './harness.ts';
import { tableLegibility, wordsBroken } from './layout.ts';
import { e2eSuite } from './suite.ts';
import { choose, nextActor, pick } from './turns.ts';

// Issue 31: the whole match on one screen on a desktop, for a player and a spectator, from the
// first card to the seventeenth; the phone keeps its own layout. Read from the page's layout.
const DESKTOPS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;
const PHONE = { width: 390, height: 844 };
/** Narrower than a desktop: the column folds under the table. */
const TABLET = { width: 900, height: 1000 };

const suite = e2eSuite('one-screen', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });

/**
 * A page in English at the first desktop size, in a context (a window) of its own: a second
 * page of one context is a tab behind the first, whose animation frames Chromium holds back
 * (each click on it then waited about 2 s for "stable", and a screenshot over 15 s in CI).
 */
async function englishPage(): Promise<Page> {
  const context = await suite.context({ viewport: DESKTOPS[0] });
  await context.addInitScript(`localStorage.setItem('iron-curtain:language', 'en')`);
  return context.newPage();
}

/** Where the things a player needs are, against the window, and how tall the document is. */
interface Placement {
  window: { width: number; height: number };
  document: number;
  prompt: { top: number; bottom: number } | null;
  promptButtons: { top: number; bottom: number }[];
  hand: { top: number; bottom: number } | null;
  panels: { top: number; bottom: number }[];
  chatInput: { top: number; bottom: number } | null;
  /** A click at each corner of the chat input reaches it: no box it scrolls in hides it. */
  chatInputReached: boolean;
}

const PLACEMENT = `(() => {
  const box = (el) => {
    if (!el || el.getClientRects().length === 0) return null;
    const r = el.getBoundingClientRect();
    return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
  };
  return {
    window: { width: innerWidth, height: innerHeight },
    document: document.documentElement.scrollHeight,
    prompt: box(document.querySelector('.match-dock .prompt')),
    promptButtons: [...document.querySelectorAll('.match-dock .prompt button')].map(box).filter(Boolean),
    hand: box(document.querySelector('.own-hand')),
    panels: [...document.querySelectorAll('.player-panel')].map(box),
    chatInput: box(document.querySelector('.chat-form input')),
    chatInputReached: (() => {
      const input = document.querySelector('.chat-form input');
      if (!input) return false;
      // As the chat tab opens: its panel scrolled to the top.
      input.closest('.side-panel')?.scrollTo(0, 0);
      const r = input.getBoundingClientRect();
      return [[r.left + 2, r.top + 2], [r.right - 2, r.top + 2], [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2]].every(([x, y]) => document.elementFromPoint(x, y) === input);
    })(),
  };
})()`;

const placement = (page: Page) => page.evaluate(PLACEMENT) as Promise<Placement>;

const measured: Record<string, unknown>[] = [];

/** Checks one page at every desktop size (and shoots it, light and dark, with the phone). */
async function checkEverySize(page: Page, who: 'player' | 'spectator', moment: string) {
  for (const size of DESKTOPS) {
    await page.setViewportSize(size);
    // The table refits to the new frame; the animations of the refit and of the move settle.
    await page
      .waitForFunction(() => document.documentElement.scrollHeight <= innerHeight, undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    await motionDone(page);
    const at = await placement(page);
    const legible = await tableLegibility(page);
    const where = `${who} ${moment} ${size.width}x${size.height}`;
    measured.push({ who, moment, size: `${size.width}x${size.height}`, ...at, legible });
    console.log(
      `one-screen: ${where}: document ${at.document}, prompt y ${at.prompt?.top ?? '-'}, hand y ${at.hand?.top ?? '-'}-${at.hand?.bottom ?? '-'}, chat input y ${at.chatInput?.top ?? '-'}, names ${legible.name.toFixed(1)} px, cards ${legible.cards}`,
    );
    expect(at.document, `${where}: no page scroll`).toBeLessThanOrEqual(size.height);
    const inside = (box: { top: number; bottom: number } | null, what: string) => {
      expect(box, `${where}: ${what} shown`).not.toBeNull();
      expect(box?.top, `${where}: ${what} top`).toBeGreaterThanOrEqual(0);
      expect(box?.bottom, `${where}: ${what} bottom`).toBeLessThanOrEqual(size.height);
    };
    if (moment !== 'end') inside(at.prompt, 'the prompt');
    for (const button of at.promptButtons) inside(button, 'a button of the prompt');
    if (who === 'player' && moment !== 'end') inside(at.hand, 'the hand');
    expect(at.panels, `${where}: both players' panels`).toHaveLength(2);
    for (const panel of at.panels) inside(panel, "a player's panel");
    inside(at.chatInput, 'the chat input');
    expect(at.chatInputReached, `${where}: the chat input in its panel's view`).toBe(true);
    expect(legible.name, `${where}: card names`).toBeGreaterThanOrEqual(12);
    expect(legible.command, `${where}: command values`).toBeGreaterThanOrEqual(12);
    expect(await wordsBroken(page), `${where}: names broken inside a word`).toEqual([]);
    const names = await page
      .locator('.player-name')
      .evaluateAll((els) => els.map((el) => Number.parseFloat(getComputedStyle(el).fontSize)));
    expect(Math.min(...names), `${where}: players' names`).toBeGreaterThanOrEqual(12);
  }
}

/** Where the table's frame and the docked decision are on a phone, and how many cards show whole. */
const PHONE_TABLE = `(() => {
  const frame = document.querySelector('.board-frame').getBoundingClientRect();
  const dock = document.querySelector('.match-dock').getBoundingClientRect();
  const cards = [...document.querySelectorAll('.board-grid [data-card]')];
  const whole = cards.filter((card) => {
    const r = card.getBoundingClientRect();
    return r.top >= frame.top - 0.5 && r.bottom <= frame.bottom + 0.5
      && r.left >= frame.left - 0.5 && r.right <= frame.right + 0.5;
  });
  return {
    frame: { top: Math.round(frame.top), bottom: Math.round(frame.bottom) },
    dock: Math.round(dock.top),
    cards: cards.length,
    whole: whole.length,
  };
})()`;

/**
 * On a phone, opened as the phone opens it (the match view at the top of the screen), the
 * docked decision and hand leave the table's frame above them, with cards in it, not under it.
 */
async function checkPhone(page: Page, who: 'player' | 'spectator', moment: string) {
  await page.setViewportSize(PHONE);
  await page.locator('.match-view').evaluate((el) => el.scrollIntoView({ block: 'start' }));
  // The frame takes the room the dock leaves, then the table refits to it.
  await page
    .waitForFunction(
      () =>
        (document.querySelector('.board-frame')?.getBoundingClientRect().bottom ?? 0) <=
        (document.querySelector('.match-dock')?.getBoundingClientRect().top ?? 0),
      undefined,
      { timeout: 5_000 },
    )
    .catch(() => undefined);
  await motionDone(page);
  // Playwright scrolled the frame to each cell it clicked, which the page takes for a hand pan
  // (a player's tap does not scroll): Fit puts the frame where the page opens it, centred.
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  const at = (await page.evaluate(PHONE_TABLE)) as {
    frame: { top: number; bottom: number };
    dock: number;
    cards: number;
    whole: number;
  };
  const where = `${who} ${moment} ${PHONE.width}x${PHONE.height}`;
  measured.push({ who, moment, size: `${PHONE.width}x${PHONE.height}`, phone: at });
  console.log(
    `one-screen: ${where}: frame y ${at.frame.top}-${at.frame.bottom}, dock y ${at.dock}, cards whole ${at.whole} of ${at.cards}`,
  );
  expect(at.frame.top, `${where}: the frame's top in the window`).toBeGreaterThanOrEqual(0);
  expect(at.frame.bottom, `${where}: the frame ends above the dock`).toBeLessThanOrEqual(at.dock);
  // The frame opens centred on the table's cards: mid-match more than one shows whole.
  expect(at.whole, `${where}: cards whole in the frame`).toBeGreaterThanOrEqual(
    Math.min(2, at.cards),
  );
  expect(await wordsBroken(page), `${where}: names broken inside a word`).toEqual([]);
  await checkHandPanKept(page, where);
}

/** A frame the player has panned by hand stays where it is when it changes size; Fit centres it again. */
async function checkHandPanKept(page: Page, where: string) {
  const frame = page.locator('.board-frame');
  const scrolled = () => frame.evaluate((el) => ({ left: el.scrollLeft, top: el.scrollTop }));
  const centred = await scrolled();
  if (centred.left === 0 && centred.top === 0) return;
  await frame.evaluate((el) => el.scrollTo(0, 0));
  await page.waitForFunction(() => {
    const el = document.querySelector('.board-frame');
    return el?.scrollLeft === 0 && el.scrollTop === 0;
  });
  const height = await frame.evaluate((el) => el.clientHeight);
  await page.setViewportSize({ width: PHONE.width, height: PHONE.height - 40 });
  await page.waitForFunction(
    (before) => document.querySelector('.board-frame')?.clientHeight !== before,
    height,
  );
  // The frame's observer reports in the frame after the layout: two frames on, it has.
  await page.evaluate(
    () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
  );
  expect(await scrolled(), `${where}: a hand pan kept when the frame resizes`).toEqual({
    left: 0,
    top: 0,
  });
  await page.setViewportSize(PHONE);
  await page.waitForFunction(
    (before) => document.querySelector('.board-frame')?.clientHeight === before,
    height,
  );
  await page.getByRole('button', { name: 'Fit', exact: true }).click();
  const again = await scrolled();
  expect(Math.abs(again.left - centred.left), `${where}: Fit centres again`).toBeLessThanOrEqual(1);
  expect(Math.abs(again.top - centred.top), `${where}: Fit centres again`).toBeLessThanOrEqual(1);
}

/** Screenshots at the three desktop sizes and the phone, in both themes (and a tablet's width in light). */
async function shootEverySize(page: Page, name: string) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const size of [...DESKTOPS, PHONE, ...(colorScheme === 'light' ? [TABLET] : [])]) {
      await page.setViewportSize(size);
      // A phone shows the match view from its top, as it opens it.
      if (size === PHONE)
        await page.locator('.match-view').evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await motionDone(page);
      await suite.shot(page, `${name}-${size.width}x${size.height}-${colorScheme}`, {
        fullPage: false,
      });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Clicks the first cell or choice offered until `done` says stop (or the match ends). */
async function playUntil(page: Page, done: () => Promise<boolean>) {
  for (let clicks = 0; clicks < 400; clicks++) {
    if (await done()) return;
    const actor = await nextActor([page]);
    if (!actor || (await done())) return;
    await choose(page, pick(actor.choices));
  }
  throw new Error('the match did not get there');
}

/** The document is no taller than the window at each desktop size (and is shot at each). */
async function checkNoScroll(page: Page, name: string) {
  for (const size of DESKTOPS) {
    await page.setViewportSize(size);
    await page
      .waitForFunction(() => document.documentElement.scrollHeight <= innerHeight, undefined, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    await motionDone(page);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    console.log(`one-screen: ${name} ${size.width}x${size.height}: document ${height}`);
    await suite.shot(page, `${name}-${size.width}x${size.height}`);
    expect(height, `${name} ${size.width}x${size.height}: no page scroll`).toBeLessThanOrEqual(
      size.height,
    );
  }
}

describe('the tutorial and the hot-seat table on one screen', () => {
  it('do not scroll at 1366x768, 1440x900 and 1920x1080', async () => {
    const page = await englishPage();
    await page.goto('/tutorial');
    await page.locator('[data-hint]').waitFor();
    await boardShown(page);
    await checkNoScroll(page, 'tutorial');
    await page.goto('/hotseat');
    await page.getByRole('button', { name: 'Start the game' }).click();
    await page.locator('[data-pass]').click();
    await boardShown(page);
    await checkNoScroll(page, 'hotseat');
  });
});

describe('a replay on one screen', () => {
  it('shows the finished 17-card record whole, legible, with its controls and both panels in the window at 1366x768, 1440x900 and 1920x1080', async () => {
    const page = await englishPage();
    await page.goto('/replay');
    await page.getByLabel('Record file').setInputFiles({
      name: 'record.json',
      mimeType: 'application/json',
      buffer: fs.readFileSync(
        path.join(REPO, 'packages/game/test/records/fixed-deal-standard.json'),
      ),
    });
    await page.getByRole('button', { name: 'Last' }).click();
    await boardShown(page);
    await checkNoScroll(page, 'replay-end');
    for (const size of DESKTOPS) {
      await page.setViewportSize(size);
      const where = `replay ${size.width}x${size.height}`;
      // The table refits a frame or two after the window changes size (its frame's observer),
      // then its zoom moves: what is measured is where it comes to rest.
      await expect
        .poll(async () => (await tableLegibility(page)).whole, { timeout: 5_000 })
        .toBe(true);
      await motionDone(page);
      const legible = await tableLegibility(page);
      const at = await placement(page);
      console.log(
        `one-screen: ${where}: names ${legible.name.toFixed(1)} px at ${legible.zoom}, panels y ${at.panels.map((p) => `${p.top}-${p.bottom}`).join(', ')}`,
      );
      expect(legible.cards, where).toBe(17);
      expect(legible.whole, `${where}: the whole table in its frame`).toBe(true);
      expect(legible.name, `${where}: card names`).toBeGreaterThanOrEqual(12);
      expect(at.panels, `${where}: both players' panels`).toHaveLength(2);
      for (const panel of at.panels) expect(panel.bottom, where).toBeLessThanOrEqual(size.height);
      const controls = await page
        .locator('.replay-controls button')
        .evaluateAll((els) => els.map((el) => el.getBoundingClientRect().bottom));
      for (const bottom of controls)
        expect(bottom, `${where}: a step control`).toBeLessThanOrEqual(size.height);
    }
    await shootEverySize(page, 'replay-end');
  });
});

describe('the whole match on one screen', () => {
  it('keeps the prompt, the hand, both panels and the chat in the window at 1366x768, 1440x900 and 1920x1080, from the start to the end', async () => {
    const ann = await englishPage();
    const created = await openAgainstComputer(ann, suite.server.url);
    const watcher = await englishPage();
    await watcher.goto(created.links.spectate);
    await synced(watcher);
    await boardShown(watcher);
    // The chat's box is drawn once its room has answered, a moment after the table.
    await ann.locator('.chat-form input').waitFor();
    await watcher.locator('.chat-form input').waitFor();

    // The start: Ann, the USSR, chooses who goes first.
    await ann.getByRole('button', { name: 'The USSR goes first' }).waitFor();
    await checkEverySize(ann, 'player', 'start');
    await checkEverySize(watcher, 'spectator', 'start');
    await checkPhone(ann, 'player', 'start');
    await shootEverySize(ann, 'player-start');

    // Mid-match: ten cards on the table, and Ann to play one from her hand.
    const handOffered = ann.locator('.own-hand [data-choice="hand"]:not([disabled])');
    await playUntil(
      ann,
      async () => (await tableCards(ann)).length >= 10 && (await handOffered.count()) > 0,
    );
    expect((await tableCards(ann)).length).toBeGreaterThanOrEqual(10);
    await checkEverySize(ann, 'player', 'mid');
    await checkEverySize(watcher, 'spectator', 'mid');
    await checkPhone(ann, 'player', 'mid');
    await checkPhone(watcher, 'spectator', 'mid');
    await shootEverySize(ann, 'player-mid');
    await shootEverySize(watcher, 'spectator-mid');

    // The end: seventeen cards (or fewer, when the track ended it early) and the result.
    await playUntil(ann, () => isOver(ann));
    await ann.getByRole('region', { name: 'Result' }).waitFor();
    await watcher.getByRole('region', { name: 'Result' }).waitFor();
    await checkEverySize(ann, 'player', 'end');
    await checkEverySize(watcher, 'spectator', 'end');
    await shootEverySize(ann, 'player-end');

    fs.writeFileSync(
      path.join(ARTIFACTS, 'one-screen-positions.json'),
      `${JSON.stringify(measured, null, 2)}\n`,
    );
  });
});
