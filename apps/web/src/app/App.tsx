import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { JoinPage } from '../lobby/JoinPage.tsx';
import { MatchScreen } from '../match/MatchScreen.tsx';
import { PlayPage } from '../match/PlayPage.tsx';
import { Link, useRoute } from './router.tsx';
import { paths } from './routes.ts';

// Pages away from the match (the home page too) load on demand, keeping the match page's first
// download small.
const HomePage = lazy(() => import('../lobby/HomePage.tsx').then((m) => ({ default: m.HomePage })));
const RulesPage = lazy(() =>
  import('../learn/RulesPage.tsx').then((m) => ({ default: m.RulesPage })),
);
const TutorialPage = lazy(() =>
  import('../learn/TutorialPage.tsx').then((m) => ({ default: m.TutorialPage })),
);
const HotseatPage = lazy(() =>
  import('../hotseat/HotseatPage.tsx').then((m) => ({ default: m.HotseatPage })),
);
const ReplayPage = lazy(() =>
  import('../features/replay/ReplayPage.tsx').then((m) => ({ default: m.ReplayPage })),
);
const ReplayImportPage = lazy(() =>
  import('../features/replay/ReplayImportPage.tsx').then((m) => ({ default: m.ReplayImportPage })),
);
const DeckUploadPage = lazy(() =>
  import('../features/decks/DeckUploadPage.tsx').then((m) => ({ default: m.DeckUploadPage })),
);

function OnDemand({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return <Suspense fallback={<p className="loading">{t('app.loading')}</p>}>{children}</Suspense>;
}

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  switch (route.page) {
    case 'home':
      return (
        <OnDemand>
          <HomePage />
        </OnDemand>
      );
    case 'join':
      return <JoinPage key={route.matchID} matchID={route.matchID} invite={route.invite} />;
    case 'match':
      return <PlayPage key={route.matchID} matchID={route.matchID} />;
    case 'watch':
      return <MatchScreen key={route.matchID} matchID={route.matchID} seat={null} />;
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
