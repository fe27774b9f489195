import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFailed } from 'vitest';
import { ARTIFACTS, buildAll, launchBrowser, type RunningServer, startServer } from './harness.ts';

export interface E2eSuite {
  /** The built server (started before the file's tests, stopped after them). */
  readonly server: RunningServer;
  readonly browser: Browser;
  /**
   * A browser context on the server (base URL, 15 s timeouts), closed after the file's tests;
   * when the test that made it fails, a screenshot of each of its pages is saved.
   */
  context(options?: BrowserContextOptions): Promise<BrowserContext>;
  /** Saves a screenshot in test-artifacts/, named after the file's prefix; whole page unless told. */
  shot(page: Page, name: string, options?: { fullPage?: boolean }): Promise<Buffer>;
}

/**
 * What every end-to-end file sets up: the web client built, the built server on the embedded
 * store (with `env` on top of the test defaults), one Chromium, and the contexts it makes.
 */
export function e2eSuite(prefix: string, env: Record<string, string> = {}): E2eSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    await buildAll();
    server = await startServer(env);
    browser = await launchBrowser();
    fs.mkdirSync(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
    await browser?.close();
    await server?.stop();
  });

  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the e2e suite has not started (use it in a test)');
    return value;
  };
  const shot = (page: Page, name: string, { fullPage = true } = {}) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${prefix}-${name}.png`), fullPage });

  return {
    get server() {
      return started(server);
    },
    get browser() {
      return started(browser);
    },
    shot,
    async context(options = {}) {
      const context = await started(browser).newContext({
        baseURL: started(server).url,
        ...options,
      });
      context.setDefaultTimeout(15_000);
      contexts.push(context);
      onTestFailed(async () => {
        for (const [i, page] of context.pages().entries()) {
          await shot(page, `failure-${contexts.indexOf(context)}-${i}`).catch(() => undefined);
        }
      });
      return context;
    },
  };
}

/** mulberry32: the players' choices are random but the same on every run. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
