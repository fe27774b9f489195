import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { boardShown, offered, skipToResult, synced } from './drive.ts';
import { REPO } from './harness.ts';
import { overflows, tableLegibility } from './layout.ts';
import { e2eSuite, seeded } from './suite.ts';
import { choose, nextActor, pick, until } from './turns.ts';

// What a new player, reader or host trips over (issue 19), read from the page's own layout.
const DESKTOP = { width: 1366, height: 768 };
const WIDE = { width: 1920, height: 1080 };
const PHONE = { width: 390, height: 844 };
const LANGUAGES = ['en', 'de', 'pl', 'fr'] as const;

const suite = e2eSuite('e2e-first', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });

/** What the player sees: the viewport only, not the whole page. */
const shot = (page: Page, name: string) => suite.shot(page, name, { fullPage: false });

async function context(viewport: { width: number; height: number }, language = 'en') {
  const created = await suite.context({ viewport });
  await created.addInitScript(`localStorage.setItem('iron-curtain:language', '${language}')`);
  return created;
}

async function api<T>(route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${suite.server.url}${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return (await response.json()) as T;
}

interface Created {
  matchID: string;
  seat: '0' | '1';
  side: 'US' | 'USSR';
  credentials: string;
  links: { invite: string; spectate: string };
}

/** Creates a match through the lobby and opens its table in `page` as the creator. */
async function openAsCreator(page: Page, request: Record<string, unknown>): Promise<Created> {
  const created = await api<Created>('/api/matches', { name: 'Ann', ...request });
  const links = {
    invite: `${suite.server.url}${created.links.invite}`,
    spectate: `${suite.server.url}${created.links.spectate}`,
  };
  await page.goto('/');
  await page.evaluate(
    ([key, seat]) => localStorage.setItem(key as string, seat as string),
    [`iron-curtain:seat:${created.matchID}`, JSON.stringify({ ...created, name: 'Ann', links })],
  );
  await page.goto(`/match/${created.matchID}`);
  await synced(page);
  // The table's name is translated: find it by its cards.
  await page.locator('.board-grid [data-card]').first().waitFor();
  return { ...created, links };
}

/** Where an element is against the viewport. */
const inView = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.top >= -1 && r.top < innerHeight * 0.5;
    });

/** The raw bytes of a GET, still encoded (fetch would decode them). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ encoding: string | undefined; bytes: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ encoding: res.headers['content-encoding'], bytes: Buffer.concat(chunks) }),
        );
      })
      .on('error', reject);
  });
}

describe('the first download', () => {
  it("sends the page's scripts and styles as the build's brotli copies, compressed once at build time", async () => {
    const dist = path.join(REPO, 'apps/web/dist');
    const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
    const assets = [...index.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      (m) => m[1] as string,
    );
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      const answer = await rawGet(`${suite.server.url}${asset}`, { 'accept-encoding': 'br, gzip' });
      expect(answer.encoding, asset).toBe('br');
      expect(answer.bytes.equals(fs.readFileSync(path.join(dist, `${asset}.br`))), asset).toBe(
        true,
      );
    }
  });
});

describe('before the second player comes', () => {
  it('offers no decision and runs no clock, with the invite link first on desktop and phone', async () => {
    const desk = await context(DESKTOP);
    const ann = await desk.newPage();
    // Ann plays the USSR, who chooses who goes first: the decision that used to be offered.
    const created = await openAsCreator(ann, { side: 'USSR', clockMinutes: 5 });
    await ann.locator('[data-waiting]').waitFor();
    expect(await offered(ann)).toEqual([]);
    expect(await inView(ann, '.panel.waiting')).toBe(true);
    const firstPanel = await ann
      .locator('main > section, main > div')
      .first()
      .evaluate((el) => el.className);
    expect(firstPanel).toContain('waiting');
    expect(await ann.getByLabel('Invite link').inputValue()).toBe(created.links.invite);
    const info = await api<{ clock: { running: string | null } }>(
      `/api/matches/${created.matchID}`,
    );
    expect(info.clock.running).toBeNull();
    // The board is in view below the invite, not only its top edge.
    const board = await ann.locator('.board').evaluate((el) => ({
      top: el.getBoundingClientRect().top,
      bottom: el.getBoundingClientRect().bottom,
    }));
    expect(board.bottom).toBeLessThanOrEqual(768);
    await shot(ann, '1-waiting-desktop');

    const phone = await context(PHONE);
    const phonePage = await phone.newPage();
    await openAsCreator(phonePage, { side: 'USSR' });
    await phonePage.locator('[data-waiting]').waitFor();
    expect(await offered(phonePage)).toEqual([]);
    expect(await inView(phonePage, '.panel.waiting')).toBe(true);
    await shot(phonePage, '1-waiting-phone');

    // Boris takes the seat: now the USSR's decision is offered and its clock runs.
    const guest = await context(PHONE);
    const boris = await guest.newPage();
    await boris.goto(created.links.invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    await until('the decision offered to Ann', async () => (await offered(ann)).length > 0);
    expect(await ann.locator('[data-waiting]').count()).toBe(0);
    const started = await api<{ clock: { running: string | null } }>(
      `/api/matches/${created.matchID}`,
    );
    expect(started.clock.running).toBe(created.seat);
    await Promise.all([desk.close(), phone.close(), guest.close()]);
  });
});

/** Plays to the end by clicking what the UI offers; after each move every page looks at its bottom. */
async function playToTheEnd(players: Page[], everyone: Page[]) {
  const random = seeded(1962);
  for (let clicks = 0; clicks < 1000; clicks++) {
    const turn = await nextActor(players);
    if (!turn) return;
    const choice = pick(turn.choices, random);
    // Everyone reads the hand and the log at the bottom of the page, not the top.
    for (const page of everyone) await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
    await choose(turn.page, choice);
  }
  throw new Error('the match did not end in 1000 clicks');
}

describe('a whole match', () => {
  let desk: BrowserContext;
  let phone: BrowserContext;
  let watch: BrowserContext;

  afterAll(async () => {
    await Promise.all([desk?.close(), phone?.close(), watch?.close()]);
  });

  it('brings the result to where each player and the spectator look, announced once, and the replay names the players', async () => {
    desk = await context(DESKTOP);
    phone = await context(PHONE);
    watch = await context(DESKTOP);
    const ann = await desk.newPage();
    const created = await openAsCreator(ann, { side: 'US' });
    const boris = await phone.newPage();
    await boris.goto(created.links.invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    const watcher = await watch.newPage();
    await watcher.goto(created.links.spectate);
    await synced(watcher);
    await boardShown(watcher);

    const everyone = [ann, boris, watcher];
    await playToTheEnd([ann, boris], everyone);

    for (const [page, name] of [
      [ann, 'desktop'],
      [boris, 'phone'],
      [watcher, 'spectator'],
    ] as const) {
      const result = page.getByRole('region', { name: 'Result' });
      await result.waitFor();
      await skipToResult(page);
      // The page was at its bottom when the match ended: the result came up to the top of the view.
      await until(`the result in view (${name})`, () => inView(page, '.end-screen'));
      const heading = (await result.locator('h2').textContent()) ?? '';
      expect(heading).toMatch(/\((Ann|Boris)\) wins$/);
      // A screen reader hears the result once: one live region says who won.
      const said = await page
        .locator('[aria-live]')
        .evaluateAll((els) => els.filter((e) => /wins/.test(e.textContent ?? '')).length);
      expect(said).toBe(1);
      await shot(page, `4-end-${name}`);
    }
    const winner = (await ann.locator('.end-screen h2').textContent()) ?? '';

    // Late in the match the whole table stays in view on desktop, every name and command value
    // at 12 px or more. A random deal's table can be too tall for the window even at the legible
    // minimum (compact cards at 80 %, eight rows or more at 1366x768): Fit then stops there and
    // the table pans inside its frame (Board.tsx), the frame still inside the window.
    const settled = (l: Awaited<ReturnType<typeof tableLegibility>>) =>
      l.whole || (l.zoom === '80%' && l.inWindow);
    for (const [size, label] of [
      [DESKTOP, '1366'],
      [WIDE, '1920'],
    ] as const) {
      await ann.setViewportSize(size);
      await ann.locator('.board-frame').evaluate((el) => el.scrollIntoView({ block: 'end' }));
      await until('the fit settles', async () => settled(await tableLegibility(ann)));
      const legible = await tableLegibility(ann);
      await shot(ann, `5-table-end-${label}`);
      console.log(`e2e: live table at ${label}: ${JSON.stringify(legible)}`);
      expect(settled(legible)).toBe(true);
      expect(legible.name).toBeGreaterThanOrEqual(12);
      expect(legible.command).toBeGreaterThanOrEqual(12);
    }

    // The replay names the players as the live match did.
    await watcher.getByRole('link', { name: 'Replay this match' }).click();
    await watcher.getByText('Before the first move').waitFor();
    await watcher.getByRole('button', { name: 'Last' }).click();
    await skipToResult(watcher);
    expect(await watcher.locator('.end-screen h2').textContent()).toBe(winner);
    expect((await watcher.locator('.player-panel').allTextContents()).join(' ')).toMatch(
      /\(Ann\)[\s\S]*\(Boris\)/,
    );
    await shot(watcher, '3-replay-names');
  });
});

describe('a finished table from a record (17 cards)', () => {
  it('shows every card name and command value at 12 px or more with the whole table in view', async () => {
    const record = fs.readFileSync(
      path.join(REPO, 'packages/game/test/records/fixed-deal-standard.json'),
    );
    for (const [size, label] of [
      [DESKTOP, '1366x768'],
      [WIDE, '1920x1080'],
    ] as const) {
      const ctx = await context(size);
      const page = await ctx.newPage();
      await page.goto('/replay');
      await page.getByLabel('Record file').setInputFiles({
        name: 'record.json',
        mimeType: 'application/json',
        buffer: record,
      });
      await page.getByRole('button', { name: 'Last' }).click();
      await page.locator('.board-frame').evaluate((el) => el.scrollIntoView({ block: 'end' }));
      const legible = await tableLegibility(page);
      expect(legible.cards).toBe(17);
      expect(legible.whole).toBe(true);
      expect(legible.name).toBeGreaterThanOrEqual(12);
      expect(legible.command).toBeGreaterThanOrEqual(12);
      await shot(page, `5-table-${label}`);
      console.log(`e2e: recorded table at ${label}: ${JSON.stringify(legible)}`);
      await ctx.close();
    }
  });
});

describe('text in four languages', () => {
  it('never runs wider than its box on home, table, rules and replay, at 390x844 and 1366x768', async () => {
    const record = fs.readFileSync(
      path.join(REPO, 'packages/game/test/records/seeded-deal-polish.json'),
    );
    const found: string[] = [];
    for (const language of LANGUAGES) {
      for (const [size, label] of [
        [PHONE, '390'],
        [DESKTOP, '1366'],
      ] as const) {
        const ctx = await context(size, language);
        const page = await ctx.newPage();
        const check = async (where: string) => {
          for (const o of await overflows(page)) {
            found.push(`${language} ${label} ${where}: ${o.what} "${o.text}" by ${o.by}px`);
          }
        };
        await page.goto('/');
        await page.locator('main').waitFor();
        await check('home');
        await page.goto('/rules');
        await page.locator('[data-example="command"]').waitFor();
        await check('rules');
        // A table in play, with a hand: against the computer, which answers by itself.
        await openAsCreator(page, { side: 'USSR', opponent: 'easy' });
        await page.locator('section.own-hand [data-card]').first().waitFor();
        await check('table');
        if (language === 'pl') await shot(page, `6-table-pl-${label}`);
        await page.goto('/replay');
        await page.locator('input[type=file]').setInputFiles({
          name: 'record.json',
          mimeType: 'application/json',
          buffer: record,
        });
        await page.locator('.replay-controls button').last().click();
        await check('replay');
        if (language === 'pl') await shot(page, `6-replay-pl-${label}`);
        await ctx.close();

        // A hand holding Brazil (South America, the longest region name): a hot-seat game on a
        // fixed deal, the page's random numbers seeded.
        const seatCtx = await context(size, language);
        await seatCtx.addInitScript(`(() => {
          let a = 2;
          Math.random = () => {
            a = (a + 0x6d2b79f5) >>> 0;
            let t = a;
            t = Math.imul(t ^ (t >>> 15), t | 1);
            t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
            return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
          };
        })()`);
        const hotseat = await seatCtx.newPage();
        await hotseat.goto('/hotseat');
        await hotseat.locator('main button').first().click();
        await hotseat.locator('main button').first().click();
        await hotseat.locator('section.own-hand [data-card="brazil"]').waitFor();
        for (const o of await overflows(hotseat)) {
          found.push(`${language} ${label} hand: ${o.what} "${o.text}" by ${o.by}px`);
        }
        if (language === 'pl') await shot(hotseat, `6-hand-pl-${label}`);
        await seatCtx.close();
      }
    }
    expect(found).toEqual([]);
  });
});
