import fs from 'node:fs';
import path from 'node:path';
import { replay } from '@iron-curtain/game';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { motionDone, openAgainstComputer as openAgainstComputerAs } from './drive.ts';
import { REPO } from './harness.ts';
import { e2eSuite } from './suite.ts';
import { until } from './turns.ts';

// Issue 31: cubes drafted before one confirm, where a hand card may go.
const DESKTOP = { viewport: { width: 1366, height: 768 } };

const suite = e2eSuite('interaction', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });

/** What the player sees once the table has settled. */
async function shot(page: Page, name: string) {
  await motionDone(page);
  await suite.shot(page, name, { fullPage: false });
}

async function newContext(options: BrowserContextOptions) {
  const context = await suite.context(options);
  await context.addInitScript(`localStorage.setItem('iron-curtain:language', 'en')`);
  return context;
}

/** A match against the easy computer, opened as its creator, the USSR, who goes first. */
async function openAgainstComputer(page: Page): Promise<void> {
  await openAgainstComputerAs(page, suite.server.url);
  await page.getByRole('button', { name: 'The USSR goes first' }).click();
}

/** The number of cubes of a side drawn on a card of the table. */
const cubesOn = async (page: Page, card: string, side: 'US' | 'USSR') =>
  Number(
    await page
      .locator(`.board-grid [data-card="${card}"] [data-cubes="${side}"] .cube-number`)
      .textContent(),
  );

describe('placing cubes', () => {
  it('shows where a hand card may go on hover, drafts cubes with the cost left, takes one back and sends them on one confirm', async () => {
    const page = await (await newContext(DESKTOP)).newPage();
    // Every message the page sends the game service, as it crosses the socket.
    const sent: string[] = [];
    page.on('websocket', (ws) => ws.on('framesent', (frame) => sent.push(String(frame.payload))));
    await openAgainstComputer(page);
    const hand = page.locator('.own-hand [data-choice="hand"]:not([disabled])');
    await hand.first().waitFor();

    // Pointing at a hand card shows its cells, and plays nothing.
    expect(await page.locator('[data-preview-cell]').count()).toBe(0);
    await hand.first().hover();
    await page.locator('[data-preview-cell]').first().waitFor();
    expect(await page.locator('.legal-cell[data-choice]').count()).toBe(0);
    await shot(page, 'hover-preview');

    // Play a card, then Command (own flag) or wait for the computer to decide on the event.
    await hand.first().click();
    await page.locator('.legal-cell[data-choice]').first().waitFor();
    await shot(page, 'cells');
    await page.locator('.legal-cell[data-choice]').first().click();
    const confirm = page.locator('[data-confirm-cubes]:not([disabled])');
    const command = page.getByRole('button', { name: /^Command: place up to/ });
    // The computer may decide on the event first: Command is then offered once it has.
    await until('the cube draft', async () => {
      if (await command.isVisible()) await command.click();
      return confirm.isVisible();
    });
    const left = async () =>
      Number(await page.locator('.cube-draft').getAttribute('data-draft-left'));
    const total = await left();
    expect(total).toBeGreaterThan(0);
    const stateBefore = await page.locator('main.match-page').getAttribute('data-state-id');

    // Draft one cube: nothing is sent, the cube is drawn with a +1 mark and the points drop.
    const target = page.locator('.board-grid button.table-card.target:not([disabled])').first();
    const card = (await target.getAttribute('data-card')) as string;
    const ussrBefore = await cubesOn(page, card, 'USSR');
    await target.click();
    expect(await cubesOn(page, card, 'USSR')).toBe(ussrBefore + 1);
    expect(await page.locator(`.board-grid [data-card="${card}"] .draft-badge`).textContent()).toBe(
      '+1',
    );
    expect(await left()).toBeLessThan(total);
    expect(await page.locator('.cube-draft .draft-left').textContent()).toMatch(
      new RegExp(`Command points left: ${await left()} of ${total}`),
    );
    expect(await page.locator('main.match-page').getAttribute('data-state-id')).toBe(stateBefore);

    // Taken back: the table is as it was.
    await page.getByRole('button', { name: 'Take back the last cube' }).click();
    expect(await cubesOn(page, card, 'USSR')).toBe(ussrBefore);
    expect(await left()).toBe(total);

    // Draft until nothing is left to spend, then one confirm sends them all.
    let drafted = 0;
    while ((await target.count()) > 0 && (await target.isVisible())) {
      await target.click();
      drafted += 1;
    }
    expect(drafted).toBeGreaterThan(0);
    expect(await page.locator('.cube-draft').textContent()).toContain('All spent');
    const planned = await page
      .locator('.board-grid .table-card.drafted')
      .evaluateAll((els) =>
        els.map((e) => [
          e.getAttribute('data-card'),
          Number(e.querySelector('[data-cubes="USSR"] .cube-number')?.textContent),
        ]),
      );
    await shot(page, 'draft-complete');
    const sentBefore = sent.length;
    await confirm.click();
    // The server took every cube: the same counts come back as the table, with no draft left.
    await page.locator('.cube-draft').waitFor({ state: 'detached' });
    await page.locator('main[data-pending="false"]').waitFor();
    for (const [id, count] of planned) {
      expect(await cubesOn(page, id as string, 'USSR'), id as string).toBeGreaterThanOrEqual(
        count as number,
      );
    }
    expect(await page.locator('.board-grid .draft-badge').count()).toBe(0);
    expect(await page.locator('[data-refusal]').count()).toBe(0);
    // The whole draft went as one message: one placeCubes move with every cube.
    const moves = sent.slice(sentBefore).filter((frame) => frame.includes('"update"'));
    expect(moves).toHaveLength(1);
    expect(moves[0]).toContain('"type":"placeCubes"');
    expect(moves[0]?.match(/\["[a-z-]+"\]/g)).toHaveLength(drafted);
  });
});

/**
 * Each element matching `selector` lies whole in the window and is what a tap at each of its
 * corners reaches: nothing covers it and no box it scrolls in cuts it off.
 */
const wholeInView = (page: Page, selector: string) =>
  page.$$eval(selector, (elements) =>
    elements.map((element) => {
      const r = element.getBoundingClientRect();
      const inWindow =
        r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
      const corners: [number, number][] = [
        [r.left + 2, r.top + 2],
        [r.right - 2, r.top + 2],
        [r.left + 2, r.bottom - 2],
        [r.right - 2, r.bottom - 2],
      ];
      const reached = corners.every(([x, y]) => element.contains(document.elementFromPoint(x, y)));
      return { what: element.textContent?.trim(), inWindow, reached };
    }),
  );

describe('placing cubes on a phone', () => {
  it.each([
    { width: 390, height: 844 },
    { width: 360, height: 640 },
  ])(
    'keeps the confirm, the take-back and every drafted chip in view at $width x $height, without scrolling the prompt',
    async (viewport) => {
      const page = await (await newContext({ viewport, hasTouch: true, isMobile: true })).newPage();
      await openAgainstComputer(page);
      // The table's taps are not what is measured here: on the smallest phone the docked
      // decision covers much of the frame, so they go to the element itself.
      const tap = (target: Locator) => target.dispatchEvent('click');
      await tap(page.locator('.own-hand [data-choice="hand"]:not([disabled])').first());
      // Each offered cell is named by the card beside it, never by grid coordinates.
      const cells = page.locator('.legal-cell[data-choice]');
      await cells.first().waitFor();
      for (const text of await cells.allTextContents())
        expect(text).toMatch(/^Play .+ here (left of|right of|above|below) /);
      await shot(page, `phone-cells-${viewport.width}x${viewport.height}`);
      await tap(cells.first());
      const confirm = page.locator('[data-confirm-cubes]:not([disabled])');
      const command = page.getByRole('button', { name: /^Command: place up to/ });
      await until('the cube draft', async () => {
        if (await command.isVisible()) await command.tap();
        return confirm.isVisible();
      });
      // A cube on each card that takes one, as far as the points go: the most chips a draft shows.
      const targets = page.locator('.board-grid button.table-card.target:not([disabled])');
      const tapped = new Set<string>();
      for (;;) {
        const ids = await targets.evaluateAll((els) =>
          els.map((e) => e.getAttribute('data-card') as string),
        );
        const next = ids.find((id) => !tapped.has(id)) ?? ids[0];
        if (!next) break;
        tapped.add(next);
        await tap(page.locator(`.board-grid button.table-card[data-card="${next}"]`));
      }
      expect(await page.locator('.cube-draft .draft-chip').count()).toBeGreaterThan(0);
      // The page back where the phone opens the table, as a player who never scrolled sees it.
      await page.locator('.match-view').evaluate((e) => e.scrollIntoView({ block: 'start' }));
      await shot(page, `phone-draft-${viewport.width}x${viewport.height}`);
      const prompt = await page
        .locator('.match-dock .prompt')
        .evaluate((e) => ({ scrolls: e.scrollHeight > e.clientHeight + 1 }));
      expect(prompt.scrolls, 'the prompt scrolls inside its box').toBe(false);
      // The players' panels on top: each number has its picture beside it (a cube, a card).
      const counts = await page.$$eval('.player-panel [data-count] dd', (dds) =>
        dds
          .filter((dd) => dd.querySelector('.count'))
          .map((dd) => {
            const picture = dd.querySelector('.cube3d, .card-back, .mini-card');
            const r = picture?.getBoundingClientRect();
            return {
              count: dd.closest('[data-count]')?.getAttribute('data-count'),
              pictured: r !== undefined && r.width >= 8 && r.height >= 8,
            };
          }),
      );
      expect(counts).toHaveLength(4);
      for (const count of counts) expect(count).toMatchObject({ pictured: true });
      for (const selector of [
        '.cube-draft .draft-chip',
        '.cube-draft [data-take-back="last"]',
        '.cube-draft [data-confirm-cubes]',
      ]) {
        for (const seen of await wholeInView(page, selector))
          expect(seen, selector).toMatchObject({ inWindow: true, reached: true });
      }
    },
  );
});

/** The marker's step on the match's own track (not the show's). */
const trackMarker = async (page: Page) =>
  Number(await page.locator('.match-head .track [aria-current="step"]').getAttribute('title'));

describe('the end of a match', () => {
  it('plays the final scoring before telling the winner, the marker walking each step, and a skip jumps to the result', async () => {
    const record = JSON.parse(
      fs.readFileSync(
        path.join(REPO, 'packages/game/test/records/fixed-deal-standard.json'),
        'utf8',
      ),
    );
    const page = await (await newContext(DESKTOP)).newPage();
    await page.goto('/replay');
    await page.getByLabel('Record file').setInputFiles({
      name: 'record.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(record)),
    });
    await page.getByRole('button', { name: 'Last' }).click();
    const result = page.getByRole('region', { name: 'Result' });
    await result.waitFor();
    expect(await result.getAttribute('data-revealed')).toBe('false');
    expect(await result.locator('h2').textContent()).toBe(
      'Round 2 is over: the final scoring decides',
    );
    expect(await page.locator('[data-announce]').textContent()).not.toContain('wins');
    // The marker walks as each step scores: it moves on the table's own track while the show plays.
    const first = await trackMarker(page);
    await expect.poll(() => trackMarker(page), { timeout: 20_000 }).not.toBe(first);
    expect(await result.getAttribute('data-revealed')).toBe('false');
    await shot(page, 'final-scoring-playing');
    await page.getByRole('button', { name: 'Skip to the result' }).click();
    expect(await result.getAttribute('data-revealed')).toBe('true');
    expect(await result.locator('h2').textContent()).toMatch(/wins$/);
    await expect.poll(() => trackMarker(page)).toBe(replay(record).state.marker);
    await shot(page, 'final-scoring-result');
  });
});

describe('the tutorial', () => {
  it('puts the hint beside the table and rings what it talks about, step by step', async () => {
    const page = await (await newContext(DESKTOP)).newPage();
    await page.goto('/tutorial');
    const hint = page.locator('aside.tutorial-hint');
    await page.locator('aside.tutorial-hint[data-coach="firstCard"]').waitFor();
    const ring = page.locator('.coach-ring');
    const boxOf = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`${selector} has no box`);
      return box;
    };
    /** The ring sits around the element, and a click at its centre reaches that element. */
    const ringsAround = async (selector: string) => {
      await expect
        .poll(async () => {
          const [r, e] = [await ring.boundingBox(), await boxOf(selector)];
          return r !== null && r.x <= e.x && r.y <= e.y && r.x + r.width >= e.x + e.width;
        })
        .toBe(true);
    };
    /** Clicks the middle of the ring once it has settled (the page may scroll to its target). */
    const clickRing = async () => {
      let r = await ring.boundingBox();
      for (let tries = 0; tries < 40; tries++) {
        await page.waitForTimeout(100);
        const now = await ring.boundingBox();
        if (r && now && now.x === r.x && now.y === r.y) break;
        r = now;
      }
      if (!r) throw new Error('no ring');
      await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
    };
    // Beside the table: the hint's column is to the right of the board, level with it.
    const [h, board] = [await boxOf('aside.tutorial-hint'), await boxOf('.board')];
    expect(h.x).toBeGreaterThanOrEqual(board.x + board.width);
    expect(h.y).toBeLessThan(board.y + board.height);

    await ringsAround('.own-hand [data-card="west-germany"]');
    await shot(page, 'tutorial-1-card');
    await clickRing();
    await ringsAround('.board-grid [data-cell="1,0"]');
    await shot(page, 'tutorial-2-cell');
    await clickRing();
    await page.locator('aside.tutorial-hint[data-coach="command"]').waitFor();
    await ringsAround('[data-action="command"]');
    await clickRing();
    await page.locator('aside.tutorial-hint[data-coach="cubes"]').waitFor();
    await ringsAround('.board-grid [data-card="west-germany"]');
    await clickRing();
    await clickRing();
    await ringsAround('.board-grid [data-card="europe"]');
    await clickRing();
    await ringsAround('[data-confirm-cubes]');
    await shot(page, 'tutorial-3-confirm');
    await clickRing();
    // The computer answers from the script; the next hint points at Poland in the hand.
    await page.locator('aside.tutorial-hint[data-coach="otherFlag"]').waitFor();
    await ringsAround('.own-hand [data-card="poland"]');
    // The hint stays in view while the page scrolls.
    await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    const after = await boxOf('aside.tutorial-hint');
    expect(after.y).toBeGreaterThanOrEqual(0);
    expect(after.y).toBeLessThan(768);
    expect(await hint.textContent()).toContain('Poland');
    await shot(page, 'tutorial-4-other-flag');
  });
});
