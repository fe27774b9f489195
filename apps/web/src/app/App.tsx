import { useTranslation } from 'react-i18next';
import { DeckUploadPage } from '../features/decks/DeckUploadPage.tsx';
import { ReplayImportPage } from '../features/replay/ReplayImportPage.tsx';
import { ReplayPage } from '../features/replay/ReplayPage.tsx';
import { HotseatPage } from '../hotseat/HotseatPage.tsx';
import { RulesPage } from '../learn/RulesPage.tsx';
import { TutorialPage } from '../learn/TutorialPage.tsx';
import { HomePage } from '../lobby/HomePage.tsx';
import { JoinPage } from '../lobby/JoinPage.tsx';
import { MatchScreen } from '../match/MatchScreen.tsx';
import { PlayPage } from '../match/PlayPage.tsx';
import { Link, useRoute } from './router.tsx';
import { paths } from './routes.ts';

export function App() {
  const route = useRoute();
  const { t } = useTranslation();
  switch (route.page) {
    case 'home':
      return <HomePage />;
    case 'join':
      return <JoinPage key={route.matchID} matchID={route.matchID} invite={route.invite} />;
    case 'match':
      return <PlayPage key={route.matchID} matchID={route.matchID} />;
    case 'watch':
      return <MatchScreen key={route.matchID} matchID={route.matchID} seat={null} />;
    case 'rules':
      return <RulesPage />;
    case 'tutorial':
      return <TutorialPage />;
    case 'hotseat':
      return <HotseatPage />;
    case 'replay':
      return <ReplayPage key={route.matchID} matchID={route.matchID} />;
    case 'replayImport':
      return <ReplayImportPage />;
    case 'decks':
      return <DeckUploadPage />;
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
