import { describe, expect, it } from 'vitest';
import { boardShown, offered, stateID, synced } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('my-games');
const { shot } = suite;

describe('my games', () => {
  it('a player who closed the table finds the match waiting for her first on the home page, and opens it', async () => {
    const annBrowser = await suite.context({ viewport: { width: 1366, height: 768 } });
    let ann = await annBrowser.newPage();
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    // A match nobody takes: it waits for an opponent, listed after the one waiting for Ann.
    await ann.getByRole('button', { name: 'Create the match' }).click();
    await ann.getByLabel('Invite link').waitFor();

    await ann.goto('/');
    await ann.getByText('More options').click();
    await ann.getByLabel('the US', { exact: true }).check();
    await ann.getByRole('button', { name: 'Create the match' }).click();
    const invite = await ann.getByLabel('Invite link').inputValue();
    await ann.getByRole('button', { name: 'Go to the table' }).click();
    await synced(ann);

    const boris = await (await suite.context({ viewport: { width: 390, height: 844 } })).newPage();
    await boris.goto(invite);
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await boris.waitForURL(/\/match\//);
    await synced(boris);
    await boardShown(boris);
    const matchID = new URL(boris.url()).pathname.split('/').pop() as string;

    // Ann closes her page; Boris, the USSR, lets the US go first: it is Ann's turn, and she is away.
    await ann.close();
    const before = await stateID(boris);
    await boris.getByRole('button', { name: 'The US goes first' }).click();
    await boris.waitForFunction(
      (id) => Number(document.querySelector('main.match-page')?.getAttribute('data-state-id')) > id,
      before,
    );

    ann = await annBrowser.newPage();
    await ann.goto('/');
    const rows = ann.locator('.my-game');
    await rows.first().getByText('Your turn').waitFor();
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-turn')))).toEqual([
      'you',
      'waiting',
    ]);
    expect(await rows.first().getAttribute('data-match')).toBe(matchID);
    expect(await rows.first().textContent()).toContain('You (US) against Boris (USSR)');
    expect(await rows.first().textContent()).toMatch(/Last move: .*first/);
    expect(await rows.nth(1).textContent()).toContain('Waiting for an opponent');
    expect(await ann.title()).toBe('(1) Iron Curtain');
    await ann.getByText('1 match is waiting for you.').waitFor();
    await shot(ann, 'desktop');
    await ann.setViewportSize({ width: 390, height: 844 });
    await shot(ann, 'phone');
    await ann.setViewportSize({ width: 1366, height: 768 });

    await rows.first().getByRole('link').click();
    await ann.waitForURL(new RegExp(`/match/${matchID}$`));
    await synced(ann);
    await boardShown(ann);
    expect((await offered(ann)).length).toBeGreaterThan(0);
  });
});
