import type { PasskeyList } from '@iron-curtain/protocol';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { LobbyError } from '../lobby/api.ts';
import { accountApi } from './accountApi.ts';
import { signedOut, useAccount } from './accountStore.ts';
import { accountErrorWords, dayOf } from './accountWords.ts';
import { createPasskey } from './passkeys.ts';
import './account.css';

type Passkey = PasskeyList['passkeys'][number];

/** The signed-in player's settings: the passkeys (add, remove), sign out here or everywhere. */
export function AccountPage() {
  const { t, i18n } = useTranslation();
  const account = useAccount();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const signedIn = account.status === 'signedIn';

  /** A refusal in words; a session the server no longer knows makes this browser a guest. */
  const refused = (e: unknown) => {
    if (e instanceof LobbyError && e.code === 'NOT_SIGNED_IN') signedOut();
    setError(accountErrorWords(t, e));
  };

  useEffect(() => {
    if (!signedIn) return;
    accountApi.passkeys().then(
      ({ passkeys }) => setPasskeys(passkeys),
      (e: unknown) => {
        if (e instanceof LobbyError && e.code === 'NOT_SIGNED_IN') signedOut();
        setError(accountErrorWords(t, e));
      },
    );
  }, [signedIn, t]);

  const act = async (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      refused(e);
    }
    setBusy(false);
  };

  const add = () =>
    act(async () => {
      const { options } = await accountApi.passkeyOptions();
      const response = await createPasskey(options);
      setPasskeys((await accountApi.addPasskey({ response })).passkeys);
      setNotice(t('account.passkeyAdded'));
    });

  const remove = (passkey: Passkey) =>
    act(async () => {
      setPasskeys((await accountApi.removePasskey(passkey.id)).passkeys);
      setNotice(t('account.passkeyRemoved', { name: passkey.name }));
    });

  const signOut = (everywhere: boolean) =>
    act(async () => {
      await (everywhere ? accountApi.signOutEverywhere() : accountApi.signOut());
      signedOut();
      navigate(paths.home(), { replace: true });
    });

  if (account.status !== 'signedIn') {
    return (
      <main className="page account-page">
        <section className="panel" aria-labelledby="account-title">
          <h1 id="account-title">{t('account.settingsTitle')}</h1>
          <p>
            {t('errors.NOT_SIGNED_IN')} <Link to={paths.signIn()}>{t('account.signIn')}</Link>
          </p>
        </section>
      </main>
    );
  }

  const day = (iso: string) => dayOf(iso, i18n.language);
  return (
    <main className="page account-page">
      <section className="panel" aria-labelledby="account-title">
        <h1 id="account-title">{account.account.username}</h1>
        <p>{t('account.memberSince', { date: day(account.account.createdAt) })}</p>
      </section>
      <section className="panel" aria-labelledby="passkeys-title">
        <h2 id="passkeys-title">{t('account.passkeysTitle')}</h2>
        {passkeys === null ? (
          <p>{t('app.loading')}</p>
        ) : (
          <ul className="passkey-list">
            {passkeys.map((passkey) => (
              <li key={passkey.id}>
                <span className="passkey-name">{passkey.name}</span>
                <span className="account-note">
                  {t('account.passkeyAddedOn', { date: day(passkey.createdAt) })}
                  {passkey.lastUsedAt &&
                    ` · ${t('account.passkeyLastUsed', { date: day(passkey.lastUsedAt) })}`}
                </span>
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => remove(passkey)}
                  aria-label={t('account.removePasskeyNamed', { name: passkey.name })}
                >
                  {t('account.removePasskey')}
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="primary" disabled={busy} onClick={add}>
          {t('account.addPasskey')}
        </button>
        <p className="account-note">{t('account.addPasskeyExplain')}</p>
      </section>
      <div aria-live="polite">{notice && <p className="account-notice">{notice}</p>}</div>
      {error && (
        <p className="error panel" role="alert">
          {error}
        </p>
      )}
      <section className="panel" aria-labelledby="sign-out-title">
        <h2 id="sign-out-title">{t('account.signOutTitle')}</h2>
        <div className="account-actions">
          <button type="button" disabled={busy} onClick={() => signOut(false)}>
            {t('account.signOut')}
          </button>
          <button type="button" disabled={busy} onClick={() => signOut(true)}>
            {t('account.signOutEverywhere')}
          </button>
        </div>
      </section>
    </main>
  );
}
