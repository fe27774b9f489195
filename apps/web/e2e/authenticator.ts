import type { BrowserContext, Page } from 'playwright-core';

/** Chromium's virtual authenticator (the DevTools protocol): CTAP2, resident keys, user verification. */
export async function withAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

type Authenticator = Awaited<ReturnType<typeof withAuthenticator>>;

/**
 * Puts the first passkey of `from` into `to`, as a passkey provider syncs it to another device;
 * answers that passkey.
 */
export async function syncPasskey(from: Authenticator, to: Authenticator) {
  const { authenticatorId } = from;
  const [passkey] = (await from.cdp.send('WebAuthn.getCredentials', { authenticatorId }))
    .credentials;
  if (!passkey) throw new Error('the authenticator holds no passkey to sync');
  await to.cdp.send('WebAuthn.addCredential', {
    authenticatorId: to.authenticatorId,
    credential: passkey,
  });
  return passkey;
}
