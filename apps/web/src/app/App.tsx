import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccount } from '../account/accountStore.ts';
import { pageLoaders } from './pages.ts';
import { Link, useRoute } from './router.tsx';
import { paths } from './routes.ts';

const HomePage = lazy(() => pageLoaders.home().then((page) => ({ default: page })));
const JoinPage = lazy(() => pageLoaders.join().then((page) => ({ default: page })));
const PlayPage = lazy(() => pageLoaders.match().then((page) => ({ default: page })));
const MatchScreen = lazy(() => pageLoaders.watch().then((page) => ({ default: page })));
const RulesPage = lazy(() => pageLoaders.rules().then((page) => ({ default: page })));
const TutorialPage = lazy(() => pageLoaders.tutorial().then((page) => ({ default: page })));
const HotseatPage = lazy(() => pageLoaders.hotseat().then((page) => ({ default: page })));
const ReplayPage = lazy(() => pageLoaders.replay().then((page) => ({ default: page })));
const ReplayImportPage = lazy(() => pageLoaders.replayImport().then((page) => ({ default: page })));
const DeckUploadPage = lazy(() => pageLoaders.decks().then((page) => ({ default: page })));
const SignInPage = lazy(() => pageLoaders.signIn().then((page) => ({ default: page })));
const SignUpPage = lazy(() => pageLoaders.signUp().then((page) => ({ default: page })));
const AccountPage = lazy(() => pageLoaders.account().then((page) => ({ default: page })));
const ProfilePage = lazy(() => pageLoaders.profile().then((page) => ({ default: page })));

function OnDemand({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <Suspense fallback={<p className="loading">{t('app.loading')}</p>}>{children}</Suspense>;
}

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  const signedIn = useAccount();
  // Seats taken while signed in bear the account's name: the lobby's pages ask for none.
  const account = signedIn.status === 'signedIn' ? signedIn.account.username : null;
  switch (route.page) {
    case 'home':
      return (
        <OnDemand>
          <HomePage account={account} />
        </OnDemand>
      );
    case 'join':
      return (
        <OnDemand>
          <JoinPage
            key={route.matchID}
            matchID={route.matchID}
            invite={route.invite}
            account={account}
          />
        </OnDemand>
      );
    case 'match':
      return (
        <OnDemand>
          <PlayPage key={route.matchID} matchID={route.matchID} />
        </OnDemand>
      );
    case 'watch':
      return (
        <OnDemand>
          <MatchScreen key={route.matchID} matchID={route.matchID} seat={null} />
        </OnDemand>
      );
    case 'rules':
      return (
        <OnDemand>
          <RulesPage />
        </OnDemand>
      );
    case 'tutorial':
      return (
        <OnDemand>
          <TutorialPage />
        </OnDemand>
      );
    case 'hotseat':
      return (
        <OnDemand>
          <HotseatPage />
        </OnDemand>
      );
    case 'replay':
      return (
        <OnDemand>
          <ReplayPage key={route.matchID} matchID={route.matchID} />
        </OnDemand>
      );
    case 'replayImport':
      return (
        <OnDemand>
          <ReplayImportPage />
        </OnDemand>
      );
    case 'decks':
      return (
        <OnDemand>
          <DeckUploadPage />
        </OnDemand>
      );
    case 'signIn':
      return (
        <OnDemand>
          <SignInPage />
        </OnDemand>
      );
    case 'signUp':
      return (
        <OnDemand>
          <SignUpPage />
        </OnDemand>
      );
    case 'account':
      return (
        <OnDemand>
          <AccountPage />
        </OnDemand>
      );
    case 'profile':
      return (
        <OnDemand>
          <ProfilePage key={route.username} username={route.username} />
        </OnDemand>
      );
    case 'notFound':
      return (
        <main className="page">
          <section className="panel" role="alert">
            <h2>{t('app.notFoundTitle')}</h2>
            <p>
              {t('app.notFound', { path: route.path })}{' '}
              <Link to={paths.home()}>{t('app.startPage')}</Link>
            </p>
          </section>
        </main>
      );
  }
}
