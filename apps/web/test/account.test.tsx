import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountPage } from '../src/account/AccountPage.tsx';
import { syncSeats } from '../src/account/accountSeats.ts';
import { accountState, checkSession, signedIn, signedOut } from '../src/account/accountStore.ts';
import { ceremonyError } from '../src/account/passkeys.ts';
import { SignInPage } from '../src/account/SignInPage.tsx';
import { SignUpPage } from '../src/account/SignUpPage.tsx';
import { parseRoute } from '../src/app/routes.ts';
import { SiteNav } from '../src/app/SiteNav.tsx';
import { setLanguage } from '../src/i18n/i18n.ts';
import { loadSeat, SEATS_ARRIVED, saveSeat } from '../src/match/seatStore.ts';

const browser = vi.hoisted(() => ({
  startRegistration: vi.fn(),
  startAuthentication: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => ({
  ...browser,
  browserSupportsWebAuthn: () => true,
  browserSupportsWebAuthnAutofill: async () => false,
  WebAuthnAbortService: { cancelCeremony: () => undefined },
}));

/** The error a browser's ceremony rejects with, by its DOMException name. */
const domError = (name: string) => Object.assign(new Error(`${name} from the browser`), { name });

const OPTIONS = {
  challenge: 'Y2hhbGxlbmdl',
  rp: { id: 'localhost', name: 'Iron Curtain' },
  user: { id: 'dXNlcg', name: 'alice', displayName: 'alice' },
  pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
};
const REGISTRATION = {
  id: 'Y3JlZA',
  rawId: 'Y3JlZA',
  type: 'public-key',
  response: { clientDataJSON: 'e30', attestationObject: 'YQ', transports: ['internal'] },
  clientExtensionResults: {},
};
const ACCOUNT = { username: 'alice', createdAt: '2026-11-28T07:00:00.000Z' };
const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}-abcd-efgh`);

type Answer = { status?: number; body: unknown };
/** Answers each request by "METHOD path"; a request nobody expected fails the test. */
function serve(answers: Record<string, Answer | Answer[]>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const key = `${init?.method ?? 'GET'} ${url}`;
      calls.push({ key, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const found = answers[key];
      const answer = Array.isArray(found) ? found.shift() : found;
      if (!answer) throw new Error(`unexpected request ${key}`);
      return new Response(JSON.stringify(answer.body), { status: answer.status ?? 200 });
    }),
  );
  return calls;
}
const refusal = (status: number, code: string, similarTo?: string): Answer => ({
  status,
  body: { error: { code, message: 'server detail', ...(similarTo ? { similarTo } : {}) } },
});

beforeEach(() => {
  browser.startRegistration.mockReset();
  browser.startAuthentication.mockReset();
});
afterEach(async () => {
  vi.unstubAllGlobals();
  signedOut();
  await setLanguage('en', { remember: false });
});

/** Asks for a name on the sign-up page, whatever its language. */
function signUpAs(name: string) {
  const field = screen.getByRole('textbox');
  fireEvent.change(field, { target: { value: name } });
  fireEvent.submit(field.closest('form') as HTMLFormElement);
}

describe('the sign-up page', () => {
  it('says which name a refused name is too close to, and asks for no passkey', async () => {
    serve({ 'POST /api/account/sign-up/options': refusal(409, 'NAME_TOO_CLOSE', 'alice') });
    render(<SignUpPage />);
    signUpAs('a1ice');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'That name looks too much like “alice”: choose another.',
    );
    expect(browser.startRegistration).not.toHaveBeenCalled();
  });

  it('shows a taken or not-allowed name in its own words, in the reader’s language', async () => {
    serve({
      'POST /api/account/sign-up/options': [
        refusal(409, 'NAME_TAKEN'),
        refusal(400, 'NAME_NOT_ALLOWED'),
      ],
    });
    await setLanguage('de', { remember: false });
    render(<SignUpPage />);
    signUpAs('alice');
    expect((await screen.findByRole('alert')).textContent).toContain('Dieser Name ist vergeben');
    signUpAs('admin');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Dieser Name ist nicht erlaubt'),
    );
  });

  it('says "passkey cancelled" when the player cancels the browser’s dialog, and stays a guest', async () => {
    const calls = serve({ 'POST /api/account/sign-up/options': { body: { options: OPTIONS } } });
    browser.startRegistration.mockRejectedValue(domError('NotAllowedError'));
    render(<SignUpPage />);
    signUpAs('alice');
    expect((await screen.findByRole('alert')).textContent).toContain('Passkey cancelled');
    expect(calls.map((c) => c.key)).toEqual(['POST /api/account/sign-up/options']);
    expect(accountState()).toEqual({ status: 'guest' });
  });

  it('shows the ten recovery codes once and moves on only after "I have saved them"', async () => {
    const calls = serve({
      'POST /api/account/sign-up/options': { body: { options: OPTIONS } },
      'POST /api/account/sign-up': {
        status: 201,
        body: { account: ACCOUNT, recoveryCodes: CODES },
      },
    });
    browser.startRegistration.mockResolvedValue(REGISTRATION);
    render(
      <>
        <SiteNav />
        <SignUpPage />
      </>,
    );
    signUpAs('alice');
    const list = await screen.findByRole('list', { name: 'Your recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    for (const code of CODES) expect(list.textContent).toContain(code);
    expect(calls[1]?.body).toEqual({ response: REGISTRATION });
    expect(browser.startRegistration).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(screen.getByRole('link', { name: /alice/ }).getAttribute('href')).toBe('/account');
    const onward = screen.getByRole('button', { name: 'Continue' });
    expect((onward as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('I have saved them'));
    expect((onward as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(onward);
    expect(window.location.pathname).toBe('/account');
  });
});

describe('the sign-in page', () => {
  it('signs in with a passkey the browser picks and names the player in the site bar', async () => {
    serve({
      'POST /api/account/sign-in/options': { body: { options: { challenge: 'Y2g' } } },
      'POST /api/account/sign-in': { body: { account: ACCOUNT } },
    });
    browser.startAuthentication.mockResolvedValue({
      id: 'Y3JlZA',
      rawId: 'Y3JlZA',
      type: 'public-key',
      response: { clientDataJSON: 'e30', authenticatorData: 'YQ', signature: 'c2ln' },
      clientExtensionResults: {},
    });
    render(
      <>
        <SiteNav />
        <SignInPage />
      </>,
    );
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/sign-in');
    expect(screen.getAllByLabelText('Name')[0]?.getAttribute('autocomplete')).toBe(
      'username webauthn',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with a passkey' }));
    expect((await screen.findByRole('link', { name: /alice/ })).getAttribute('href')).toBe(
      '/account',
    );
    expect(accountState()).toEqual({ status: 'signedIn', account: ACCOUNT });
  });

  it('shows a refused recovery code in words, in Polish too, and signs in with a good one', async () => {
    const calls = serve({
      'POST /api/account/sign-in/recovery': [
        refusal(401, 'RECOVERY_CODE_REFUSED'),
        { body: { account: ACCOUNT } },
      ],
    });
    await setLanguage('pl', { remember: false });
    render(<SignInPage />);
    const [, name] = screen.getAllByLabelText('Nazwa');
    fireEvent.change(name as HTMLElement, { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Kod odzyskiwania'), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Zaloguj się kodem odzyskiwania' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Ta nazwa i kod odzyskiwania nie pozwalają się zalogować',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Zaloguj się kodem odzyskiwania' }));
    await waitFor(() => expect(accountState()).toEqual({ status: 'signedIn', account: ACCOUNT }));
    expect(calls[0]?.body).toEqual({ username: 'alice', code: 'wrong' });
  });
});

describe('a code from another device', () => {
  it('shows a used code in words, and with a live one makes a passkey here and signs in', async () => {
    const calls = serve({
      'POST /api/account/passkey-codes/options': [
        refusal(410, 'PASSKEY_CODE_USED'),
        { body: { options: OPTIONS } },
      ],
      'POST /api/account/passkey-codes/passkey': { status: 201, body: { account: ACCOUNT } },
    });
    browser.startRegistration.mockResolvedValue(REGISTRATION);
    render(<SignInPage />);
    fireEvent.change(screen.getByLabelText('Code'), { target: { value: 'K7QP-2M9X' } });
    fireEvent.click(screen.getByRole('button', { name: 'Make a passkey with the code' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/used/i);
    fireEvent.click(screen.getByRole('button', { name: 'Make a passkey with the code' }));
    await waitFor(() => expect(accountState()).toEqual({ status: 'signedIn', account: ACCOUNT }));
    expect(calls[0]?.body).toEqual({ code: 'K7QP-2M9X' });
    expect(calls.find((c) => c.key === 'POST /api/account/passkey-codes/passkey')?.body).toEqual({
      response: REGISTRATION,
    });
  });
});

describe('the settings page', () => {
  const PASSKEY = {
    id: 'Y3JlZA',
    name: 'Chrome on Linux',
    createdAt: '2026-11-28T07:00:00.000Z',
    lastUsedAt: null,
  };

  it('lists the passkeys by device and date, and shows the server’s refusal of the last one', async () => {
    const calls = serve({
      'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } },
      'DELETE /api/account/passkeys': refusal(409, 'LAST_PASSKEY'),
    });
    signedIn(ACCOUNT);
    render(<AccountPage />);
    expect(await screen.findByText('Chrome on Linux')).toBeTruthy();
    expect(screen.getByText('added November 28, 2026')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Remove the passkey Chrome on Linux' }));
    expect(calls).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Yes, remove' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This is your last passkey and no recovery code is left',
    );
    expect(calls[1]?.body).toEqual({ id: 'Y3JlZA' });
    expect(screen.getByText('Chrome on Linux')).toBeTruthy();
  });

  it('says so when the device already holds a passkey of the account', async () => {
    serve({
      'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } },
      'POST /api/account/passkeys/options': { body: { options: OPTIONS } },
    });
    browser.startRegistration.mockRejectedValue(domError('InvalidStateError'));
    signedIn(ACCOUNT);
    render(<AccountPage />);
    await screen.findByText('Chrome on Linux');
    fireEvent.click(screen.getByRole('button', { name: 'Add a passkey' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This device already holds a passkey of your account',
    );
  });

  it('shows a one-time code for another device, with the time it works until', async () => {
    serve({
      'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } },
      'POST /api/account/passkey-codes': {
        status: 201,
        body: { code: 'K7QP-2M9X', expiresAt: '2026-11-28T07:10:00.000Z' },
      },
    });
    signedIn(ACCOUNT);
    render(<AccountPage />);
    await screen.findByText('Chrome on Linux');
    fireEvent.click(screen.getByRole('button', { name: 'Show a code' }));
    expect(await screen.findByText('K7QP-2M9X')).toBeTruthy();
    expect(screen.getByText(/It works once, until/)).toBeTruthy();
  });

  it('downloads the data from the export route, as one file', async () => {
    serve({ 'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } } });
    signedIn(ACCOUNT);
    render(<AccountPage />);
    const link = screen.getByRole('link', { name: 'Download my data' });
    expect(link.getAttribute('href')).toBe('/api/account/export');
    expect(link.hasAttribute('download')).toBe(true);
  });

  it('deletes the account only at the second press, then forgets the name', async () => {
    const calls = serve({
      'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } },
      'DELETE /api/account': { body: { deleted: true } },
    });
    signedIn(ACCOUNT);
    render(<AccountPage />);
    await screen.findByText('Chrome on Linux');
    fireEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    // The safe answer has the focus; nothing is sent yet.
    expect(document.activeElement?.textContent).toBe('Keep it');
    expect(calls.map((c) => c.key)).not.toContain('DELETE /api/account');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, delete it' }));
    await waitFor(() => expect(accountState()).toEqual({ status: 'guest' }));
    expect(calls.map((c) => c.key)).toContain('DELETE /api/account');
  });

  it('signs out everywhere and forgets the name', async () => {
    const calls = serve({
      'GET /api/account/passkeys': { body: { passkeys: [PASSKEY] } },
      'POST /api/account/sign-out-everywhere': { body: { ended: 3 } },
    });
    signedIn(ACCOUNT);
    render(<AccountPage />);
    await screen.findByText('Chrome on Linux');
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere' }));
    await waitFor(() => expect(accountState()).toEqual({ status: 'guest' }));
    expect(calls.map((c) => c.key)).toContain('POST /api/account/sign-out-everywhere');
    expect(localStorage.length).toBe(0);
  });
});

describe('the signed-in state', () => {
  it('asks the server nothing for a guest', async () => {
    const calls = serve({});
    await checkSession();
    expect(calls).toEqual([]);
  });

  it('becomes a guest when the server no longer knows the session, but keeps the name offline', async () => {
    signedIn(ACCOUNT);
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    await checkSession();
    expect(accountState()).toEqual({ status: 'signedIn', account: ACCOUNT });
    serve({ 'GET /api/account': refusal(401, 'NOT_SIGNED_IN') });
    await act(() => checkSession());
    expect(accountState()).toEqual({ status: 'guest' });
  });
});

describe("the account's seats on this device", () => {
  const HERE = 'herematch1';
  const THERE = 'theremtch2';
  const GONE = 'gonematch3';
  const CREDS = 'c'.repeat(24);

  it("joins this browser's seats to the account and keeps the account's seats here, with their sides", async () => {
    saveSeat({ matchID: HERE, seat: '0', side: 'US', credentials: CREDS }, { name: 'Al' });
    const calls = serve({
      'GET /api/account/seats': {
        body: {
          seats: [
            { matchID: THERE, seat: '1', credentials: CREDS },
            { matchID: GONE, seat: '0', credentials: CREDS },
          ],
        },
      },
      'POST /api/account/seats': { body: { joined: 1 } },
      'POST /api/my-games': {
        body: {
          at: '2026-11-28T07:00:00.000Z',
          games: [
            {
              matchID: THERE,
              seat: '1',
              side: 'USSR',
              status: 'playing',
              opponent: { name: 'Boris', side: 'US' },
              turn: 'you',
              result: null,
              clock: null,
              deadline: null,
              lastMove: null,
              deck: { id: 'd', version: '1', name: 'Deck', hash: 'h', reconstructed: false },
              updatedAt: '2026-11-28T07:00:00.000Z',
            },
            { matchID: GONE, seat: '0', error: { code: 'NOT_FOUND', message: '' } },
          ],
        },
      },
    });
    const arrived = vi.fn();
    window.addEventListener(SEATS_ARRIVED, arrived);
    await syncSeats('alice');
    window.removeEventListener(SEATS_ARRIVED, arrived);
    expect(calls.find((c) => c.key === 'POST /api/account/seats')?.body).toEqual({
      seats: [{ matchID: HERE, seat: '0', credentials: CREDS }],
    });
    expect(calls.find((c) => c.key === 'POST /api/my-games')?.body).toEqual({
      seats: [
        { matchID: THERE, seat: '1', credentials: CREDS },
        { matchID: GONE, seat: '0', credentials: CREDS },
      ],
    });
    expect(loadSeat(THERE)).toEqual({
      matchID: THERE,
      seat: '1',
      side: 'USSR',
      credentials: CREDS,
      name: 'alice',
    });
    // A seat the server does not vouch for is not kept.
    expect(loadSeat(GONE)).toBeNull();
    expect(arrived).toHaveBeenCalledOnce();
    localStorage.clear();
  });
});

describe('a passkey ceremony’s failures', () => {
  it('reads only a cancel or timeout as PASSKEY_CANCELLED, each failure with its own code', () => {
    expect(ceremonyError(domError('NotAllowedError')).code).toBe('PASSKEY_CANCELLED');
    expect(ceremonyError(domError('InvalidStateError')).code).toBe('PASSKEY_ALREADY_HERE');
    expect(ceremonyError(domError('NotSupportedError')).code).toBe('PASSKEY_UNSUPPORTED');
    // A refusal that is not the player's (a wrong relying party, say) is not read as a cancel.
    expect(ceremonyError(domError('SecurityError')).code).toBe('PASSKEY_FAILED');
  });

  it('has the account pages at their addresses', () => {
    expect(parseRoute('/sign-in')).toEqual({ page: 'signIn' });
    expect(parseRoute('/sign-up')).toEqual({ page: 'signUp' });
    expect(parseRoute('/account')).toEqual({ page: 'account' });
  });
});
