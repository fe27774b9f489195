import { describe, expect, it } from 'vitest';
import { audit } from './axe.ts';
import { boardShown, offered, stateID, synced } from './drive.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('my-games');
const { shot } = suite;

describe('my games', () => {
  it('a player who closed the table finds the match waiting for her first on the home page, and opens it', async () => {
    // Axe is injected as a script: this context lets it in (the next test keeps the policy).
    const annBrowser = await suite.context({
      viewport: { width: 1366, height: 768 },
      bypassCSP: true,
    });
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
    // The last move is worded once the deck's chunk has loaded, a moment after the row.
    await rows
      .first()
      .getByText(/Last move: .*first/)
      .waitFor();
    expect(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-turn')))).toEqual([
      'you',
      'waiting',
    ]);
    expect(await rows.first().getAttribute('data-match')).toBe(matchID);
    expect(await rows.first().textContent()).toContain('You (US) against Boris (USSR)');
    expect(await rows.nth(1).textContent()).toContain('Waiting for an opponent');
    expect(await ann.title()).toBe('(1) Iron Curtain');
    await ann.getByText('1 match is waiting for you.').waitFor();
    expect(await audit(ann)).toEqual([]);
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

  it('a second browser takes the games over with the one-time link, once, and plays from it', async () => {
    const annBrowser = await suite.context({ viewport: { width: 1366, height: 768 } });
    const ann = await annBrowser.newPage();
    const violations: string[] = [];
    ann.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    await ann.goto('/');
    await ann.getByLabel('Your name').fill('Ann');
    await ann.getByRole('button', { name: 'Easy' }).click();
    await ann.waitForURL(/\/match\//);
    await synced(ann);
    const matchID = new URL(ann.url()).pathname.split('/').pop() as string;

    await ann.goto('/');
    await ann.locator(`.my-game[data-match="${matchID}"]`).waitFor();
    await ann.getByRole('button', { name: 'Take my games to another device' }).click();
    const code = (await ann.locator('.handover-code').getAttribute('data-code')) as string;
    const link = await ann.getByLabel('Link for the other device').inputValue();
    expect(new URL(link).hash).toBe(`#handover=${code}`);
    // The QR code is drawn under the page's security policy: dark and light modules both.
    await ann.waitForFunction(() => {
      const canvas = document.querySelector('canvas.handover-qr') as HTMLCanvasElement | null;
      const data = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height).data;
      if (!data || canvas.width < 100) return false;
      let dark = 0;
      for (let i = 0; i < data.length; i += 4) if ((data[i] as number) < 128) dark += 1;
      return dark > 100 && dark < data.length / 4 - 100;
    });
    await shot(ann, 'handover');
    expect(violations).toEqual([]);

    const phone = await (await suite.context({ viewport: { width: 390, height: 844 } })).newPage();
    await phone.goto(link);
    expect(await phone.getByLabel('Code').inputValue()).toBe(code);
    // The page takes the code out of the address bar once it has read it (history, no reload).
    await expect.poll(() => new URL(phone.url()).hash, { timeout: 10_000 }).toBe('');
    await phone.getByRole('button', { name: 'Take the games' }).click();
    await phone.getByText('1 game taken over.').waitFor();
    const row = phone.locator(`.my-game[data-match="${matchID}"]`);
    await row.waitFor();
    await shot(phone, 'taken-phone');
    await row.getByRole('link').click();
    await synced(phone);
    await boardShown(phone);
    expect(await phone.locator('[data-seat]').first().getAttribute('data-seat')).toBe('0');

    // Used once, the code hands nothing over again.
    const again = await (await suite.context()).newPage();
    await again.goto(link);
    await again.getByRole('button', { name: 'Take the games' }).click();
    await again.getByRole('alert').waitFor();
    // In words of its own: the code was used, not "there is no such match".
    expect(await again.getByRole('alert').textContent()).toContain('This code was used already');
    expect(await again.locator('.my-game').count()).toBe(0);
  });
});
