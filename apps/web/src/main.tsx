import './no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { detectLanguage, setLanguage } from './i18n/i18n.ts';
import './fonts.css';
import './styles.css';
import { OfflineNotice } from './app/OfflineNotice.tsx';
import { preloadPage } from './app/pages.ts';
import { parseRoute } from './app/routes.ts';
import { SiteNav } from './app/SiteNav.tsx';
import { registerServiceWorkerAtLoad } from './app/serviceWorker.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const { pathname, hash } = window.location;
const route = parseRoute(pathname, hash);
registerServiceWorkerAtLoad({ afterTable: route.page === 'match' || route.page === 'watch' });
preloadPage(route);
// A match page's connection opens as soon as the match code is here, before React mounts.
if (route.page === 'match' || route.page === 'watch') {
  import('./match/earlyClient.ts')
    .then(({ connectEarly }) => connectEarly(pathname, hash))
    .catch(() => undefined);
}
// The chosen language's texts load before the first paint, so no page flashes in English.
const language = detectLanguage();
await setLanguage(language, { remember: false }).catch(() => undefined);
createRoot(root).render(
  <StrictMode>
    <SiteNav />
    <OfflineNotice />
    <App />
  </StrictMode>,
);
