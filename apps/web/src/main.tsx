import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './i18n';
import { App } from './app/App';
import './styles/global.css';

// Before the first render so the first paint is already in the right language.
initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
