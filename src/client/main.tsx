import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { startI18n } from './lib/i18n';
import { App } from './app/app';
import { startFirstRequests } from './app/first-requests';

// The language first (its translations start loading), so the first requests can fetch a screen's translations too.
const i18nStarted = startI18n();
startFirstRequests(window.location.pathname, window.location.search);
await i18nStarted;
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
