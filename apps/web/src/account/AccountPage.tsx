import { apiRoutes, type PasskeyCode, type PasskeyList } from '@iron-curtain/protocol';
import { useCallback, useEffect, useState } from 'react';
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
type Section = 'passkeys' | 'otherDevice' | 'delete' | 'signOut';

/**
 * The signed-in player's settings: the passkeys (add, remove), a code for another device, the
 * data to download, deleting the account, sign out here or everywhere.
 */
export function AccountPage() {
  const { t, i18n } = useTranslation();
  const account = useAccount();
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [busy, setBusy] = useState(false);
  /** A refusal in words, shown in the section whose action it answers. */
  const [error, setError] = useState<{ at: Section; words: string } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  /** The passkey whose removal waits for a second press: a removed passkey signs in nowhere. */
  const [confirming, setConfirming] = useState<string | null>(null);
  /** The code shown for another device, until it is used or expires. */
  const [deviceCode, setDeviceCode] = useState<PasskeyCode | null>(null);
  /** Deleting waits for a second press, as removing a passkey does. */
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  // The Remove button the question replaces had the focus: the safe answer takes it, once.
  const focusOnce = useCallback((button: HTMLButtonElement | null) => button?.focus(), []);
  const signedIn = account.status === 'signedIn';

  /** A session the server no longer knows makes this browser a guest. */
  const refused = (at: Section, e: unknown) => {
    if (e instanceof LobbyError && e.code === 'NOT_SIGNED_IN') signedOut();
    setError({ at, words: accountErrorWords(t, e) });
  };

  useEffect(() => {
    if (!signedIn) return;
    accountApi.passkeys().then(
      ({ passkeys }) => setPasskeys(passkeys),
      (e: unknown) => {
        if (e instanceof LobbyError && e.code === 'NOT_SIGNED_IN') signedOut();
        setError({ at: 'passkeys', words: accountErrorWords(t, e) });
      },
    );
  }, [signedIn, t]);

  const act = async (at: Section, action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      await action();
    } catch (e) {
      refused(at, e);
    }
    setBusy(false);
  };

  const add = () =>
    act('passkeys', async () => {
      const { options } = await accountApi.passkeyOptions();
      const response = await createPasskey(options);
      setPasskeys((await accountApi.addPasskey({ response })).passkeys);
      setNotice(t('account.passkeyAdded'));
    });

  const remove = (passkey: Passkey) =>
    act('passkeys', async () => {
      setConfirming(null);
      setPasskeys((await accountApi.removePasskey(passkey.id)).passkeys);
      setNotice(t('account.passkeyRemoved', { name: passkey.name }));
    });

  const showCode = () =>
    act('otherDevice', async () => {
      setDeviceCode(await accountApi.passkeyCode());
    });

  const deleteAccount = () =>
    act('delete', async () => {
      setConfirmingDelete(false);
      await accountApi.deleteAccount();
      signedOut();
      navigate(paths.home(), { replace: true });
    });

  const signOut = (everywhere: boolean) =>
    act('signOut', async () => {
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
                {confirming === passkey.id ? (
                  <div className="passkey-confirm">
                    <p>{t('account.removeConfirm', { name: passkey.name })}</p>
                    <button
                      type="button"
                      className="danger"
                      disabled={busy}
                      onClick={() => remove(passkey)}
                    >
                      {t('account.yesRemove')}
                    </button>
                    <button
                      type="button"
                      disabled={busy}
                      onClick={() => setConfirming(null)}
                      ref={focusOnce}
                    >
                      {t('account.keepPasskey')}
                    </button>
                  </div>
                ) : (
                  <button
                    type="button"
                    disabled={busy}
                    onClick={() => setConfirming(passkey.id)}
                    aria-label={t('account.removePasskeyNamed', { name: passkey.name })}
                  >
                    {t('account.removePasskey')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <button type="button" className="primary" disabled={busy} onClick={add}>
          {t('account.addPasskey')}
        </button>
        <p className="account-note">{t('account.addPasskeyExplain')}</p>
        <div aria-live="polite">{notice && <p>{notice}</p>}</div>
        {error?.at === 'passkeys' && (
          <p className="error" role="alert">
            {error.words}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="other-device-title">
        <h2 id="other-device-title">{t('account.otherDeviceTitle')}</h2>
        <p>{t('account.otherDeviceExplain')}</p>
        <button type="button" disabled={busy} onClick={showCode}>
          {t('account.showCode')}
        </button>
        <div aria-live="polite">
          {deviceCode && (
            <p>
              {t('account.codeIs')} <strong className="device-code">{deviceCode.code}</strong>{' '}
              {t('account.codeValidUntil', {
                time: new Date(deviceCode.expiresAt).toLocaleTimeString(i18n.language, {
                  hour: '2-digit',
                  minute: '2-digit',
                }),
              })}
            </p>
          )}
        </div>
        {error?.at === 'otherDevice' && (
          <p className="error" role="alert">
            {error.words}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="export-title">
        <h2 id="export-title">{t('account.exportTitle')}</h2>
        <p>{t('account.exportExplain')}</p>
        {/* The server answers the file as an attachment: the browser downloads it. */}
        <a className="button-link" href={apiRoutes.accountExport} download>
          {t('account.exportLink')}
        </a>
      </section>
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
        {error?.at === 'signOut' && (
          <p className="error" role="alert">
            {error.words}
          </p>
        )}
      </section>
      <section className="panel" aria-labelledby="delete-title">
        <h2 id="delete-title">{t('account.deleteTitle')}</h2>
        <p>{t('account.deleteExplain')}</p>
        {confirmingDelete ? (
          <div className="passkey-confirm">
            <p>{t('account.deleteConfirm', { name: account.account.username })}</p>
            <button type="button" className="danger" disabled={busy} onClick={deleteAccount}>
              {t('account.yesDelete')}
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => setConfirmingDelete(false)}
              ref={focusOnce}
            >
              {t('account.keepAccount')}
            </button>
          </div>
        ) : (
          <button
            type="button"
            className="danger"
            disabled={busy}
            onClick={() => setConfirmingDelete(true)}
          >
            {t('account.deleteAccount')}
          </button>
        )}
        {error?.at === 'delete' && (
          <p className="error" role="alert">
            {error.words}
          </p>
        )}
      </section>
    </main>
  );
}
