import fs from 'node:fs';
import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { syncPasskey, withAuthenticator } from './authenticator.ts';
import { audit } from './axe.ts';
import { boardShown, synced } from './drive.ts';
import { e2eSuite, seeded } from './suite.ts';
import { playTurn } from './turns.ts';

// A scripted player clicks faster than a person: lift the per-socket rate limit.
const suite = e2eSuite('account-devices', {
  RATE_LIMIT_PER_SECOND: '100',
  RATE_LIMIT_BURST: '200',
});
const { shot } = suite;

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };

/** Passkeys need a secure context: localhost over plain http is one, 127.0.0.1 cannot be a relying party. */
const localhost = () => suite.server.url.replace('127.0.0.1', 'localhost');

/** A browser at localhost; `button`: it offers no passkey autofill, so it signs in at the button. */
async function browserAt(viewport: typeof DESKTOP, button = false): Promise<BrowserContext> {
  const context = await suite.context({ baseURL: localhost(), viewport, bypassCSP: true });
  // Chromium's virtual authenticator answers a waiting autofill request at once.
  if (button) {
    await context.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
  }
  return context;
}

describe('an account on two devices', () => {
  it('signs up, plays a correspondence turn, signs in on a second browser holding the same passkey, finds the game under My games and plays the next turn; the profile shows it', async () => {
    const random = seeded(47);
    const laptop = await browserAt(DESKTOP, true);
    const vera = await laptop.newPage();
    const { cdp, authenticatorId } = await withAuthenticator(laptop, vera);

    await vera.goto('/sign-up');
    await vera.getByLabel('Your name').fill('Vera');
    await vera.getByRole('button', { name: 'Create the passkey' }).click();
    await vera.getByRole('list', { name: 'Your recovery codes' }).waitFor();
    await vera.getByLabel('I have saved them').check();
    await vera.getByRole('button', { name: 'Continue' }).click();
    await vera.waitForURL(/\/account$/);

    // Signed in, Vera creates a public correspondence match as the USSR (who decides first).
    // She is asked no name: the page says whom she plays as, marked and linked as an account.
    await vera.goto('/');
    const playingAs = vera.locator('.home-name');
    await playingAs.getByRole('link', { name: 'Vera' }).waitFor();
    expect(await playingAs.textContent()).toBe('Playing as Vera account');
    expect(await vera.getByLabel('Your name').count()).toBe(0);
    await shot(vera, 'home-playing-as-1366', { fullPage: false });
    await vera.getByText('More options').click();
    await vera.getByLabel('the USSR', { exact: true }).check();
    await vera.getByLabel('Clock').selectOption('d3');
    await vera.getByLabel('Public: listed for spectators').check();
    await vera.getByRole('button', { name: 'Create the match' }).click();
    const invite = await vera.getByLabel('Invite link').inputValue();
    await vera.getByRole('button', { name: 'Go to the table' }).click();
    await synced(vera);
    const matchID = new URL(vera.url()).pathname.split('/').pop() as string;

    // A guest may not take her name, in any case; under his own he takes the seat.
    const phone = await browserAt(PHONE);
    const boris = await phone.newPage();
    await boris.goto(invite);
    await boris.getByText(/Vera/).first().waitFor();
    await boris.getByLabel('Your name').fill('VERA');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await boris.getByRole('alert').getByText('That name belongs to an account').waitFor();
    // Nor a computer player's name.
    await boris.getByLabel('Your name').fill('Computer (easy)');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await boris
      .getByRole('alert')
      .getByText('That name is kept for the game itself or its computer players')
      .waitFor();
    await boris.getByLabel('Your name').fill('Boris');
    await boris.getByRole('button', { name: 'Take the seat and play' }).click();
    await boris.waitForURL(/\/match\//);
    await synced(boris);
    await boardShown(boris);
    await boardShown(vera);

    // At the table, Vera's name links to her profile, marked as an account's; Boris is a guest.
    const veraPanel = boris.locator('.player-panel[data-player="0"]');
    expect(await veraPanel.getByRole('link', { name: 'Vera' }).getAttribute('href')).toBe(
      '/@/Vera',
    );
    // The side's line says whose name it is (on a phone that line is hidden: the flag shows the side).
    expect(await veraPanel.locator('.player-side').textContent()).toBe('USSR · account');
    expect(await boris.locator('.player-panel[data-player="1"] .player-side').textContent()).toBe(
      'US · guest',
    );
    await shot(boris, 'table-names-390', { fullPage: false });

    await playTurn(vera, '0', random);
    await playTurn(boris, '1', random);

    // A second browser holding the same passkey (synced, as password managers do) signs in and
    // finds the game under My games, with no handover: the account carries the seat.
    const tablet = await browserAt(DESKTOP, true);
    const again = await tablet.newPage();
    await syncPasskey({ cdp, authenticatorId }, await withAuthenticator(tablet, again));
    await again.goto('/sign-in');
    await again.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await again.waitForURL((url) => url.pathname === '/');
    const row = again.locator(`.my-game[data-match="${matchID}"]`);
    await row.getByText('Your turn').waitFor({ timeout: 15_000 });
    await row.getByRole('link').click();
    await again.waitForURL(new RegExp(`/match/${matchID}$`));
    await synced(again);
    await boardShown(again);
    await playTurn(again, '0', random);
    await boris.locator('section.prompt[data-decider="1"]').waitFor();

    // Her profile, as anyone sees it: the game in play, to watch.
    await again.goto('/@/vera');
    await again.getByRole('heading', { name: 'Vera', level: 1 }).waitFor();
    const current = again.getByRole('region', { name: 'Games in play' });
    expect(await current.getByRole('link', { name: 'Watch' }).getAttribute('href')).toBe(
      `/watch/${matchID}`,
    );
    expect(await again.locator('.profile-results tbody').textContent()).toBe('US000USSR000');
    expect(await audit(again)).toEqual([]);
    await shot(again, 'profile-1366');
    await boris.goto('/@/Vera');
    await boris.getByRole('region', { name: 'Games in play' }).getByText('Boris').waitFor();
    expect(await audit(boris)).toEqual([]);
    await shot(boris, 'profile-390');

    // Settings on a phone: a code for another device, the data to download, deleting at the
    // second press; then the profile is gone.
    await again.setViewportSize(PHONE);
    await again.goto('/account');
    await again.getByRole('button', { name: 'Show a code' }).click();
    await again.locator('.device-code').waitFor();
    await again.getByRole('button', { name: 'Delete my account' }).click();
    await again.getByRole('button', { name: 'Yes, delete it' }).waitFor();
    expect(await audit(again)).toEqual([]);
    await shot(again, 'settings-390');
    const download = again.waitForEvent('download');
    await again.getByRole('link', { name: 'Download my data' }).click();
    const file = await (await download).path();
    const exported = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(exported.account.username).toBe('Vera');
    expect(exported.games.map((g: { matchID: string }) => g.matchID)).toEqual([matchID]);
    await again.getByRole('button', { name: 'Yes, delete it' }).click();
    await again.waitForURL((url) => url.pathname === '/');
    await again.goto('/@/Vera');
    await again.getByRole('alert').getByText('No player has this name.').waitFor();
  });
});
