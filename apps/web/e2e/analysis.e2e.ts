import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { REPO } from './harness.ts';
import { overflows } from './layout.ts';
import { e2eSuite } from './suite.ts';

const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const RECORD = fs.readFileSync(
  path.join(REPO, 'packages/game/test/records/fixed-deal-standard.json'),
);
const MOVES = (JSON.parse(RECORD.toString()) as { moves: unknown[] }).moves.length;

const suite = e2eSuite('analysis');
const { shot } = suite;

async function openRecord(page: Page): Promise<void> {
  await page.goto('/replay');
  await page.getByLabel('Record file').setInputFiles({
    name: 'record.json',
    mimeType: 'application/json',
    buffer: RECORD,
  });
  await page.getByText('Before the first move').waitFor();
}

/** A quick analysis, run in the page's Web Worker; resolves when the chart is shown. */
async function analyse(page: Page): Promise<void> {
  await page.getByLabel('Depth').selectOption('quick');
  await page.getByRole('button', { name: 'Analyse the match' }).click();
  await page.locator('.analysis-progress progress').waitFor();
  await page.getByRole('img', { name: /Chart of the US’s chance to win/ }).waitFor({
    timeout: 120_000,
  });
}

describe('the analysis in the replay viewer', () => {
  it('runs in a worker under the page policy, can be cancelled, and jumps the replay from the chart', async () => {
    const context = await suite.context({ viewport: { width: 1366, height: 900 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await openRecord(page);

    await page.getByLabel('Depth').selectOption('quick');
    await page.getByRole('button', { name: 'Analyse the match' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Analyse the match' }).waitFor();
    expect(await page.locator('.analysis-progress').count()).toBe(0);

    await analyse(page);
    const marks = await page.locator('.analysis-marks li').count();
    expect(await page.locator('svg g.mark').count()).toBe(marks);
    expect(await page.getByRole('table', { name: 'Per player' }).locator('tbody tr').count()).toBe(
      4,
    );
    if (marks > 0) {
      await expect
        .poll(() => page.locator('.analysis-marks li').first().textContent())
        .toMatch(/Better: .+ instead of .+\./);
      const button = page.locator('.analysis-marks li button').first();
      const index = Number(/\d+/.exec((await button.textContent()) ?? '')?.[0]);
      await button.click();
      expect(await page.locator('.replay-controls output').textContent()).toBe(
        `Move ${index} of ${MOVES}`,
      );
      // In players' words: cards and neighbours, never grid coordinates.
      for (const text of await page.locator('.analysis-marks li').allTextContents()) {
        expect(text).not.toMatch(/\(-?\d+, -?\d+\)/);
      }
      // Shown on the table: the position before the move, with the better move marked in view.
      await page.locator('.analysis-marks li [data-show-better]').first().click();
      expect(await page.locator('.replay-controls output').textContent()).toMatch(
        index === 1 ? /^Before the first move$/ : new RegExp(`^Move ${index - 1} of ${MOVES}$`),
      );
      const marked = page.locator('.replay .marked-cell, .replay .table-card.marked').first();
      await marked.waitFor();
      await expect
        .poll(() =>
          marked.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return r.top >= 0 && r.bottom <= innerHeight;
          }),
        )
        .toBe(true);
      await shot(page, 'better-move-shown', { fullPage: false });
    }
    // A click at the chart's right end goes to the last move.
    await page.locator('.analysis-chart svg').scrollIntoViewIfNeeded();
    const box = await page.locator('.analysis-chart svg').boundingBox();
    if (!box) throw new Error('the chart has no box');
    await page.mouse.click(box.x + box.width - 2, box.y + box.height / 2);
    expect(await page.locator('.replay-controls output').textContent()).toBe(
      `Move ${MOVES} of ${MOVES}`,
    );
    expect(
      await page
        .getByRole('link', { name: 'Save the record with its analysis' })
        .getAttribute('href'),
    ).toMatch(/^data:application\/json/);
    expect(errors).toEqual([]);
    await page.locator('.analysis').scrollIntoViewIfNeeded();
    await shot(page, 'desktop');
    console.log(`e2e: analysis of ${MOVES} moves at the quick depth, ${marks} marked`);
    await context.close();
  });

  it('fits the phone, with no serious accessibility finding', async () => {
    // axe is injected as an inline script, which the pages' policy refuses: a test tool, not the app.
    const context = await suite.context({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      bypassCSP: true,
    });
    const page = await context.newPage();
    await openRecord(page);
    await analyse(page);
    await page.locator('.analysis details summary').click();
    expect(await overflows(page)).toEqual([]);
    const controls = await page
      .locator('.analysis button, .analysis select, .analysis summary, .analysis a.button')
      .evaluateAll((els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return { text: el.textContent, width: r.width, height: r.height };
        }),
      );
    expect(controls.filter((c) => c.width < 44 || c.height < 44)).toEqual([]);
    await page.addScriptTag({ content: AXE_SOURCE });
    const results = await page.evaluate(async () => {
      // biome-ignore lint/suspicious/noExplicitAny: axe-core's global, injected above
      const axe = (window as any).axe;
      return axe.run(document.querySelector('.analysis'), { resultTypes: ['violations'] });
    });
    const serious = (results.violations as { id: string; impact: string }[]).filter(
      (v) => v.impact === 'serious' || v.impact === 'critical',
    );
    expect(serious).toEqual([]);
    await page.locator('.analysis').scrollIntoViewIfNeeded();
    await shot(page, 'phone');
    await context.close();
  });
});
