import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { syncPasskey, withAuthenticator } from './authenticator.ts';
import { audit } from './axe.ts';
import { e2eSuite } from './suite.ts';

const suite = e2eSuite('accounts');
const { shot } = suite;

/**
 * The server listens on 127.0.0.1, but an IP address cannot be a passkey's relying party: the
 * pages are opened at localhost, which browsers treat as a secure context over plain http.
 */
const localhost = () => suite.server.url.replace('127.0.0.1', 'localhost');

const nav = (page: Page) => page.getByRole('navigation');

describe('passkey accounts', () => {
  it('signs up with a passkey, keeps the recovery codes, signs out, and signs in again with the passkey', async () => {
    const context = await suite.context({
      baseURL: localhost(),
      viewport: { width: 1366, height: 768 },
      bypassCSP: true,
    });
    // Chromium's virtual authenticator answers a waiting autofill request at once, so this page
    // signs in at the button: its browser offers no autofill (the next context keeps it).
    await context.addInitScript(() => {
      PublicKeyCredential.isConditionalMediationAvailable = async () => false;
    });
    const page = await context.newPage();
    const { cdp, authenticatorId } = await withAuthenticator(context, page);

    await page.goto('/');
    await nav(page).getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.getByLabel('Name').first().getAttribute('autocomplete')).toBe(
      'username webauthn',
    );
    expect(await audit(page)).toEqual([]);
    await shot(page, 'sign-in-1366');

    await page.getByRole('link', { name: 'Choose a name' }).click();
    await page.getByRole('heading', { name: 'Choose a name' }).waitFor();
    const name = page.getByLabel('Your name');
    await name.fill('admin');
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await page.getByRole('alert').getByText('That name is not allowed').waitFor();
    expect(await audit(page)).toEqual([]);
    await shot(page, 'sign-up-refused-1366');

    await name.fill('Olga');
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    const list = page.getByRole('list', { name: 'Your recovery codes' });
    await list.waitFor();
    const codes = await list.getByRole('listitem').allTextContents();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    await nav(page).getByRole('link', { name: /Olga/ }).waitFor();
    expect(await audit(page)).toEqual([]);
    await shot(page, 'recovery-codes-1366');

    const onward = page.getByRole('button', { name: 'Continue' });
    expect(await onward.isDisabled()).toBe(true);
    await page.getByLabel('I have saved them').check();
    await onward.click();
    await page.waitForURL(/\/account$/);
    await page.getByRole('heading', { name: 'Olga' }).waitFor();
    const passkeys = page.locator('.passkey-list li');
    await passkeys.first().waitFor();
    expect(await passkeys.count()).toBe(1);
    expect(await passkeys.first().textContent()).toMatch(/added /);

    // The authenticator holds the account's passkey already: the browser refuses a second one.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByRole('alert').getByText('This device already holds a passkey').waitFor();
    expect(await audit(page)).toEqual([]);
    await shot(page, 'account-1366');

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await nav(page).getByRole('link', { name: 'Sign in' }).waitFor();
    expect((await page.request.get('/api/account')).status()).toBe(401);

    // A look-alike of the name now taken is refused with the name it is too close to.
    await page.goto('/sign-up');
    await page.getByLabel('Your name').fill('0lga');
    await page.getByRole('button', { name: 'Create the passkey' }).click();
    await page.getByRole('alert').getByText('That name looks too much like “Olga”').waitFor();

    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await nav(page).getByRole('link', { name: /Olga/ }).waitFor();
    expect((await page.request.get('/api/account')).status()).toBe(200);

    // Signed out again, the player refuses the check of the authenticator: the ceremony is cancelled.
    await nav(page).getByRole('link', { name: /Olga/ }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await cdp.send('WebAuthn.setUserVerified', { authenticatorId, isUserVerified: false });
    await page.goto('/sign-in');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('alert').getByText('Passkey cancelled').waitFor();
    await nav(page).getByRole('link', { name: 'Sign in' }).waitFor();
    await shot(page, 'cancelled-1366');

    // Another browser holding the same passkey (synced, as password managers do): the name
    // field's autofill (conditional mediation) signs in as the page opens.
    const phone = await suite.context({
      baseURL: localhost(),
      viewport: { width: 390, height: 844 },
      bypassCSP: true,
    });
    const second = await phone.newPage();
    const secondAuth = await withAuthenticator(phone, second);
    await syncPasskey({ cdp, authenticatorId }, secondAuth);
    await second.goto('/sign-in');
    await nav(second).getByRole('link', { name: /Olga/ }).click();
    await second.getByRole('heading', { name: 'Olga' }).waitFor();
    await second.locator('.passkey-list li').first().waitFor();
    expect(await audit(second)).toEqual([]);
    await shot(second, 'account-390');
    await second.getByRole('button', { name: 'Sign out everywhere' }).click();
    await second.waitForURL((url) => url.pathname === '/');
    expect((await second.request.get('/api/account')).status()).toBe(401);

    // A browser without the passkey signs in with a recovery code, once.
    const fresh = await suite.context({
      baseURL: localhost(),
      viewport: { width: 390, height: 844 },
      bypassCSP: true,
    });
    const other = await fresh.newPage();
    await other.goto('/sign-in');
    const recovery = other.getByRole('region', { name: 'Lost your passkey?' });
    await recovery.getByLabel('Name').fill('olga');
    await recovery.getByLabel('Recovery code').fill(codes[0] as string);
    await shot(other, 'sign-in-390');
    await recovery.getByRole('button', { name: 'Sign in with a recovery code' }).click();
    await other.waitForURL((url) => url.pathname === '/');
    await nav(other).getByRole('link', { name: /Olga/ }).click();
    await other.getByRole('heading', { name: 'Olga' }).waitFor();
    // This browser's own authenticator adds a second passkey, which is then removed.
    const otherAuth = await withAuthenticator(fresh, other);
    const otherPasskeys = other.locator('.passkey-list li');
    await otherPasskeys.first().waitFor();
    expect(await otherPasskeys.count()).toBe(1);
    await other.getByRole('button', { name: 'Add a passkey' }).click();
    await other.getByText('Passkey added.').waitFor();
    expect(await otherPasskeys.count()).toBe(2);
    await otherPasskeys
      .nth(1)
      .getByRole('button', { name: /Remove the passkey/ })
      .click();
    expect(await audit(other)).toEqual([]);
    await shot(other, 'remove-confirm-390');
    await other.getByRole('button', { name: 'Yes, remove' }).click();
    await other.getByText(/Passkey .* removed\./).waitFor();
    expect(await otherPasskeys.count()).toBe(1);
    await other.getByRole('button', { name: 'Sign out', exact: true }).click();
    await other.waitForURL((url) => url.pathname === '/');
    await other.goto('/sign-in');
    await recovery.getByLabel('Name').fill('Olga');
    await recovery.getByLabel('Recovery code').fill(codes[0] as string);
    await recovery.getByRole('button', { name: 'Sign in with a recovery code' }).click();
    await recovery
      .getByRole('alert')
      .getByText('That name and recovery code do not sign in')
      .waitFor();
    expect(await audit(other)).toEqual([]);

    // The sign-up's codes on a phone, as a player sees them there.
    await other.goto('/sign-up');
    await other.getByLabel('Your name').fill('Piotr');
    await other.getByRole('button', { name: 'Create the passkey' }).click();
    await other.getByRole('list', { name: 'Your recovery codes' }).waitFor();
    await shot(other, 'recovery-codes-390');
    expect(
      (
        await otherAuth.cdp.send('WebAuthn.getCredentials', {
          authenticatorId: otherAuth.authenticatorId,
        })
      ).credentials.map((c) => c.rpId),
    ).toEqual(['localhost', 'localhost']);
  });
});
