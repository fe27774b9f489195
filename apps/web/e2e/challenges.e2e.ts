import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { boardShown, synced } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('challenges');
const { shot } = suite;

async function newPage(viewport: { width: number; height: number }): Promise<Page> {
  return (await suite.context({ viewport })).newPage();
}

describe('open challenges', () => {
  it('a second browser takes an open challenge from the home page list, and the match starts on both pages', async () => {
    // Boris is on the home page first: the challenge must arrive in his list without a reload.
    const boris = await newPage({ width: 390, height: 844 });
    await boris.goto('/');
    await boris.getByText('No open challenge right now', { exact: false }).waitFor();
    await shot(boris, 'home-phone');

    const ann = await newPage({ width: 1366, height: 900 });
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByLabel(/Open to anyone/).check();
    await ann.getByRole('button', { name: 'Create the match' }).click();
    await ann.waitForURL(/\/match\//);
    await synced(ann);
    await ann.getByText('Waiting for your opponent', { exact: false }).waitFor();

    await boris.getByLabel('Your name').fill('Boris');
    const take = boris.getByRole('button', { name: 'Play Ann' });
    await take.waitFor();
    await shot(boris, 'listed');
    await take.click();
    await boris.waitForURL(/\/match\//);
    await synced(boris);
    await boardShown(boris);

    // Ann's page, waiting at the table, moves to the game by itself.
    await ann.locator('[data-player="1"]', { hasText: 'Boris' }).waitFor();
    await boardShown(ann);
    expect(await ann.getByText('Waiting for your opponent', { exact: false }).count()).toBe(0);
    expect(new URL(ann.url()).pathname).toBe(new URL(boris.url()).pathname.replace(/\/$/, ''));

    // Taken, the challenge leaves every list.
    const carla = await newPage({ width: 1366, height: 900 });
    await carla.goto('/');
    await carla.getByText('No open challenge right now', { exact: false }).waitFor();
    expect(await carla.getByRole('button', { name: 'Play Ann' }).count()).toBe(0);
  });
});
