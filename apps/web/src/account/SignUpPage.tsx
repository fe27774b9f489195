import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, navigate } from '../app/router.tsx';
import { paths } from '../app/routes.ts';
import { accountApi } from './accountApi.ts';
import { seatsFollow, signedIn } from './accountStore.ts';
import { accountErrorWords } from './accountWords.ts';
import { createPasskey } from './passkeys.ts';
import './account.css';

/**
 * Sign-up: a name (checked by the server only, so each refusal reads in the page's words), then the browser makes the passkey, then the
 * ten recovery codes, shown this once, until the player says they are saved.
 */
export function SignUpPage() {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const username = String(new FormData(event.currentTarget).get('username') ?? '').trim();
    setBusy(true);
    setError(null);
    try {
      const { options } = await accountApi.signUpOptions(username);
      const response = await createPasskey(options);
      const answer = await accountApi.signUp({ response });
      setCodes(answer.recoveryCodes);
      signedIn(answer.account);
      seatsFollow(answer.account);
    } catch (e) {
      setError(accountErrorWords(t, e));
    }
    setBusy(false);
  };

  if (codes) {
    return (
      <main className="page account-page">
        <section className="panel recovery-codes" aria-labelledby="codes-title">
          <h1 id="codes-title">{t('account.codesTitle')}</h1>
          <p>{t('account.codesExplain')}</p>
          <ol className="code-list" aria-label={t('account.codesTitle')}>
            {codes.map((code) => (
              <li key={code}>
                <code>{code}</code>
              </li>
            ))}
          </ol>
          <p className="account-note">{t('account.codesOnce')}</p>
          <label className="inline">
            <input type="checkbox" checked={saved} onChange={(e) => setSaved(e.target.checked)} />{' '}
            {t('account.codesSaved')}
          </label>
          <button
            type="button"
            className="primary"
            disabled={!saved}
            onClick={() => navigate(paths.account(), { replace: true })}
          >
            {t('account.codesContinue')}
          </button>
        </section>
      </main>
    );
  }

  return (
    <main className="page account-page">
      <section className="panel" aria-labelledby="sign-up-title">
        <h1 id="sign-up-title">{t('account.signUpTitle')}</h1>
        <p>{t('account.signUpExplain')}</p>
        <form onSubmit={submit}>
          <label>
            {t('account.chooseName')}
            <input
              name="username"
              autoComplete="username"
              required
              maxLength={20}
              aria-describedby="name-rules"
            />
          </label>
          <p id="name-rules" className="account-note">
            {t('account.nameRules')}
          </p>
          <button type="submit" className="primary" disabled={busy}>
            {t('account.createPasskey')}
          </button>
        </form>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <p>
          {t('account.haveAccount')} <Link to={paths.signIn()}>{t('account.signIn')}</Link>
        </p>
      </section>
    </main>
  );
}
