import type { Account } from '@iron-curtain/protocol';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { accountApi } from './accountApi.ts';
import { seatsFollow, signedIn } from './accountStore.ts';
import { accountErrorWords } from './accountWords.ts';
import {
  autofillOffered,
  cancelCeremony,
  createPasskey,
  isAborted,
  signWithPasskey,
} from './passkeys.ts';
import './account.css';

/** Signed in: the account remembered, the player back at the start page. */
function welcome(account: Account): void {
  signedIn(account);
  seatsFollow(account);
  navigate(paths.home(), { replace: true });
}

/**
 * Sign-in with a passkey: from the browser's suggestions on the name field where it offers them
 * (conditional mediation, waiting in the background), or its dialog at the button; or with a
 * name and one of the account's recovery codes.
 */
/** A field for a code typed from elsewhere: a recovery code, or the code of another device. */
const OneTimeCode = ({ name, label }: { name: string; label: string }) => (
  <label>
    {label}
    <input name={name} autoComplete="one-time-code" required maxLength={64} spellCheck={false} />
  </label>
);

export function SignInPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [recoveryError, setRecoveryError] = useState<string | null>(null);
  const [deviceError, setDeviceError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      if (!(await autofillOffered()) || !live) return;
      const { options } = await accountApi.signInOptions();
      if (!live) return;
      const response = await signWithPasskey(options, true);
      welcome((await accountApi.signIn({ response })).account);
    })().catch((e: unknown) => {
      // Aborted: the button started its own ceremony, or the page closed.
      if (live && !isAborted(e)) setError(accountErrorWords(t, e));
    });
    return () => {
      live = false;
      cancelCeremony();
    };
  }, [t]);

  const withPasskey = async () => {
    setBusy(true);
    setError(null);
    try {
      const { options } = await accountApi.signInOptions();
      const response = await signWithPasskey(options);
      welcome((await accountApi.signIn({ response })).account);
    } catch (e) {
      setError(accountErrorWords(t, e));
      setBusy(false);
    }
  };

  const withCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const username = String(form.get('username') ?? '').trim();
    const code = String(form.get('code') ?? '').trim();
    setBusy(true);
    setRecoveryError(null);
    try {
      welcome((await accountApi.recoverySignIn({ username, code })).account);
    } catch (e) {
      setRecoveryError(accountErrorWords(t, e));
      setBusy(false);
    }
  };

  /** A code shown on a signed-in device: this device makes its own passkey of that account. */
  const withDeviceCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get('device-code') ?? '').trim();
    setBusy(true);
    setDeviceError(null);
    try {
      const { options } = await accountApi.passkeyCodeOptions(code);
      const response = await createPasskey(options);
      welcome((await accountApi.passkeyCodePasskey({ response })).account);
    } catch (e) {
      setDeviceError(accountErrorWords(t, e));
      setBusy(false);
    }
  };

  return (
    <main className="page account-page">
      <section className="panel" aria-labelledby="sign-in-title">
        <h1 id="sign-in-title">{t('account.signInTitle')}</h1>
        <p>{t('account.signInExplain')}</p>
        <label>
          {t('account.name')}
          <input name="passkey-name" autoComplete="username webauthn" maxLength={20} />
        </label>
        <button type="button" className="primary" disabled={busy} onClick={withPasskey}>
          {t('account.signInWithPasskey')}
        </button>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <p>
          {t('account.noAccount')} <Link to={paths.signUp()}>{t('account.signUpLink')}</Link>
        </p>
      </section>
      <section className="panel" aria-labelledby="recovery-title">
        <h2 id="recovery-title">{t('account.recoveryTitle')}</h2>
        <p>{t('account.recoveryExplain')}</p>
        <form onSubmit={withCode}>
          <label>
            {t('account.name')}
            <input name="username" autoComplete="username" required maxLength={20} />
          </label>
          <OneTimeCode name="code" label={t('account.recoveryCode')} />
          <button type="submit" disabled={busy}>
            {t('account.signInWithCode')}
          </button>
        </form>
        {recoveryError && (
          <p className="error" role="alert">
            {recoveryError}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="device-code-title">
        <h2 id="device-code-title">{t('account.deviceCodeTitle')}</h2>
        <p>{t('account.deviceCodeExplain')}</p>
        <form onSubmit={withDeviceCode}>
          <OneTimeCode name="device-code" label={t('account.deviceCode')} />
          <button type="submit" disabled={busy}>
            {t('account.useDeviceCode')}
          </button>
        </form>
        {deviceError && (
          <p className="error" role="alert">
            {deviceError}
          </p>
        )}
      </section>
    </main>
  );
}
