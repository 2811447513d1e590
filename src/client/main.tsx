import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './styles.css';
import { startI18n } from './lib/i18n';
import { App } from './app/app';
import { startFirstRequests } from './app/first-requests';

startFirstRequests(window.location.pathname, window.location.search);
await startI18n();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
