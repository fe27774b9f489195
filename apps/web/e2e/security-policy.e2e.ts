import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boardShown, synced } from './drive.ts';
import { e2eSuite, seeded } from './suite.ts';
import { choose, nextActor, pick } from './turns.ts';

interface Violation {
  page: string;
  directive: string;
  blocked: string;
  source: string;
  sample: string;
}

const suite = e2eSuite('policy', { RATE_LIMIT_PER_SECOND: '100', RATE_LIMIT_BURST: '200' });
const { shot } = suite;
/** Every securitypolicyviolation event any page of any context fired. */
const violations: Violation[] = [];

/** A browser context whose pages report every policy violation (the listener is not subject to the policy). */
async function watchedContext(viewport: { width: number; height: number }) {
  const context = await suite.context({ viewport });
  await context.exposeBinding('reportViolation', ({ page }, violation: Omit<Violation, 'page'>) => {
    violations.push({ page: page.url(), ...violation });
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      // biome-ignore lint/suspicious/noExplicitAny: the binding exposed above
      (window as any).reportViolation({
        directive: event.effectiveDirective,
        blocked: event.blockedURI,
        source: `${event.sourceFile}:${event.lineNumber}`,
        sample: event.sample,
      });
    });
  });
  return context;
}

/** Clicks what the UI offers, on whichever page offers it, until the match is over. */
async function playToTheEnd(players: Page[], random: () => number): Promise<number> {
  let clicks = 0;
  for (; clicks < 1000; clicks++) {
    const actor = await nextActor(players);
    if (!actor) return clicks;
    await choose(actor.page, pick(actor.choices, random));
  }
  return clicks;
}

describe('the content security policy in the browser', () => {
  it('lets a whole match, its spectator, its replay and the other pages run without a single violation', async () => {
    const host = await watchedContext({ width: 1366, height: 768 });
    const guest = await watchedContext({ width: 390, height: 844 });
    const ann = await host.newPage();

    // The pages away from the match, each loaded on demand.
    await ann.goto('/rules');
    await ann.getByRole('heading', { name: 'The cards of this deck' }).waitFor();
    await ann.goto('/tutorial');
    await boardShown(ann);
    await ann.goto('/hotseat');
    await ann.getByRole('button', { name: 'Start the game' }).click();
    await ann.locator('[data-pass]').click();
    await boardShown(ann);

    // Ann creates a match, Boris takes the seat by the invite link, Carla watches.
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByText('More options').click();
    await ann.getByLabel('the US', { exact: true }).check();
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    const spectate = await ann.getByLabel('Spectator link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    await synced(ann);
    const boris = await guest.newPage();
    await boris.goto(invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await synced(boris);
    // A window of her own: a second tab of Ann's would hold Ann's animation frames back.
    const carla = await (await watchedContext({ width: 1366, height: 768 })).newPage();
    await carla.goto(spectate);
    await synced(carla);

    const clicks = await playToTheEnd([ann, boris], seeded(1947));
    for (const page of [ann, boris, carla]) {
      await page.getByRole('region', { name: 'Result' }).waitFor();
    }
    await carla.getByRole('link', { name: 'Replay this match' }).click();
    await carla.getByRole('button', { name: 'Last' }).click();
    await shot(carla, 'replay');

    expect(violations).toEqual([]);
    console.log(`policy: a match of ${clicks} clicks and five other pages, no violation`);

    // The listener does hear the policy: an inline script is refused and reported.
    await carla.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'document.title = "injected"';
      document.head.append(script);
    });
    await expect.poll(() => violations.length).toBe(1);
    expect(violations[0]?.directive).toBe('script-src-elem');
    expect(await carla.title()).not.toBe('injected');
  });
});
