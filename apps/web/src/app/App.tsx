import { HomePage } from '../lobby/HomePage.tsx';
import { JoinPage } from '../lobby/JoinPage.tsx';
import { MatchScreen } from '../match/MatchScreen.tsx';
import { PlayPage } from '../match/PlayPage.tsx';
import { Link, useRoute } from './router.tsx';
import { paths } from './routes.ts';

export function App() {
  const route = useRoute();
  switch (route.page) {
    case 'home':
      return <HomePage />;
    case 'join':
      return <JoinPage key={route.matchID} matchID={route.matchID} invite={route.invite} />;
    case 'match':
      return <PlayPage key={route.matchID} matchID={route.matchID} />;
    case 'watch':
      return <MatchScreen key={route.matchID} matchID={route.matchID} seat={null} />;
    case 'notFound':
      return (
        <main className="page">
          <section className="panel" role="alert">
            <h2>No such page</h2>
            <p>
              {route.path} is not a page of this site. <Link to={paths.home()}>Start page</Link>
            </p>
          </section>
        </main>
      );
  }
}
