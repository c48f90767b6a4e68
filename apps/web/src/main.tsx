import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n, whenI18nReady } from './i18n';
import { App } from './app/App';
import './styles/global.css';

// Before the first render so the first paint is already in the right language.
initI18n();

const container = document.getElementById('root');
if (!container) throw new Error('index.html lacks #root');

// English texts are a chunk of their own: an English visitor's first render waits for them
// (a Chinese one's resolves at once), so no Chinese frame flashes by.
void whenI18nReady().then(() =>
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
