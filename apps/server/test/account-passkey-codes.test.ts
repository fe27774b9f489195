import {
  apiRoutes,
  HANDOVER_TTL_MS,
  type PasskeyCode,
  type PasskeyList,
  type SignUpOptionsResponse,
} from '@iron-curtain/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { setAccountDisabled } from '../src/accounts/disable-account.ts';
import { HANDOVER_TRIES } from '../src/lobby/handovers.ts';
import { Browser } from './accounts/browser.ts';
import { accountInstances, PUBLIC_URL } from './accounts/instances.ts';
import { ManualTime } from './manual-time.ts';
import { createAndJoin, type TestServer } from './support.ts';

/** On SQLite one server; on Postgres the code asked for on one instance and redeemed on the other. */
describe.each(['sqlite', 'postgres'] as const)(
  'a passkey on a second device by a code, on %s',
  (kind) => {
    const time = new ManualTime();
    let first: TestServer;
    let a: string;
    let b: string;
    const on = accountInstances(kind, { time });
    beforeAll(() => {
      ({ first, a, b } = on);
    });
    const browser = () => new Browser(PUBLIC_URL);
    /** A signed-up browser and a passkey code it asked for. */
    const codeOf = async (username: string) => {
      const laptop = browser();
      expect((await laptop.signUp(a, username)).status).toBe(201);
      const asked = await laptop.send<PasskeyCode>(`${a}${apiRoutes.passkeyCodes}`, 'POST', {});
      expect(asked.status, JSON.stringify(asked.body)).toBe(201);
      return { laptop, code: asked.body.code, expiresAt: asked.body.expiresAt };
    };
    const redeem = (who: Browser, code: string) =>
      who.send<SignUpOptionsResponse>(`${b}${apiRoutes.passkeyCodeOptions}`, 'POST', { code });

    it('registers a passkey of the account on the other device, signed in there, which then signs in with it alone', async () => {
      const { laptop, code, expiresAt } = await codeOf(`Codey_${kind}`);
      expect(code).toMatch(/^[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}$/);
      expect(Date.parse(expiresAt) - time.now()).toBe(HANDOVER_TTL_MS);
      const phone = browser();
      // Case and dashes do not matter.
      const options = await redeem(phone, code.toLowerCase().replaceAll('-', ''));
      expect(options.status, JSON.stringify(options.body)).toBe(200);
      expect(options.body.options.user.name).toBe(`Codey_${kind}`);
      // A second on: the passkeys' order (by creation) is certain.
      time.skip(1000);
      const made = await phone.send(`${a}${apiRoutes.passkeyCodePasskey}`, 'POST', {
        response: phone.authenticator.register(options.body.options),
        passkeyName: 'phone',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect(made.body).toMatchObject({ account: { username: `Codey_${kind}` } });
      expect((await phone.account(b)).status).toBe(200);
      const listed = await laptop.send<PasskeyList>(`${b}${apiRoutes.passkeys}`, 'GET');
      expect(listed.body.passkeys.map((p) => p.name)).toEqual(['test laptop', 'phone']);

      const later = browser();
      later.authenticator.credentials.push(...phone.authenticator.credentials);
      const signedIn = await later.signIn(
        a,
        later.authenticator.authenticate(await later.signInOptions(b)),
      );
      expect(signedIn.body).toMatchObject({ account: { username: `Codey_${kind}` } });
    });

    it('opens once: of two devices redeeming the code at once one has it, and it is used after', async () => {
      const { code } = await codeOf(`Once_${kind}`);
      const both = await Promise.all([redeem(browser(), code), redeem(browser(), code)]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 410]);
      expect(both.find((r) => r.status === 410)?.body.error?.code).toBe('PASSKEY_CODE_USED');
      const again = await redeem(browser(), code);
      expect([again.status, again.body.error?.code]).toEqual([410, 'PASSKEY_CODE_USED']);
    });

    it('expires after 10 minutes', async () => {
      const { code } = await codeOf(`Late_${kind}`);
      time.skip(HANDOVER_TTL_MS);
      const late = await redeem(browser(), code);
      expect([late.status, late.body.error?.code]).toEqual([410, 'PASSKEY_CODE_EXPIRED']);
    });

    it('takes a bounded number of tries: wrong secrets behind its locator use them up, then the right code opens nothing', async () => {
      const { code } = await codeOf(`Guessed_${kind}`);
      const locator = code.slice(0, 5);
      const wrong = `${locator}-${code.slice(6, 11) === 'AAAAA' ? 'BBBBB' : 'AAAAA'}-AAAAA`;
      for (let i = 0; i < HANDOVER_TRIES; i++) {
        const guess = await redeem(browser(), wrong);
        expect(guess.body.error?.code).toBe('PASSKEY_CODE_UNKNOWN');
      }
      const right = await redeem(browser(), code);
      expect([right.status, right.body.error?.code]).toEqual([410, 'PASSKEY_CODE_TRIED_OUT']);
    });

    it("refuses a code without a session to ask, a game handover's code, nonsense, and a disabled account's code, each with its reason", async () => {
      const asked = await browser().send(`${a}${apiRoutes.passkeyCodes}`, 'POST', {});
      expect([asked.status, asked.body.error?.code]).toEqual([401, 'NOT_SIGNED_IN']);

      const { created } = await createAndJoin(a);
      const handover = await browser().send<{ code: string }>(
        `${a}${apiRoutes.handovers}`,
        'POST',
        {
          seats: [{ matchID: created.matchID, seat: '0', credentials: created.credentials }],
        },
      );
      expect(handover.status).toBe(201);
      const crossed = await redeem(browser(), handover.body.code);
      expect([crossed.status, crossed.body.error?.code]).toEqual([404, 'PASSKEY_CODE_UNKNOWN']);
      const nonsense = await redeem(browser(), 'not a code');
      expect([nonsense.status, nonsense.body.error?.code]).toEqual([404, 'PASSKEY_CODE_UNKNOWN']);

      const { code } = await codeOf(`Banned_${kind}`);
      await setAccountDisabled(
        first.stores,
        `Banned_${kind}`,
        true,
        new Date(time.now()).toISOString(),
      );
      const banned = await redeem(browser(), code);
      expect([banned.status, banned.body.error?.code]).toEqual([404, 'PASSKEY_CODE_UNKNOWN']);
    });
  },
);
