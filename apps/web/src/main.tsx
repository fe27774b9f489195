import './no-eval.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { detectLanguage, setLanguage } from './i18n/i18n.ts';
import './fonts.css';
import './styles.css';
import { SiteNav } from './app/SiteNav.tsx';
import { connectEarly } from './match/earlyClient.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
connectEarly(window.location.pathname, window.location.hash);
// The chosen language's texts load before the first paint, so no page flashes in English.
const language = detectLanguage();
await setLanguage(language, { remember: false }).catch(() => undefined);
createRoot(root).render(
  <StrictMode>
    <SiteNav />
    <App />
  </StrictMode>,
);
