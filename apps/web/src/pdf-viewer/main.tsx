/** Entry of the PDF viewer page, /pdf/web/viewer.html?file=<link> (docs/rules/screens.md, "File preview"). */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initViewerI18n } from './viewer-i18n';
import { PdfViewerPage } from './PdfViewerPage';
import './pdf-viewer-page.css';

initViewerI18n();

const container = document.getElementById('root');
if (!container) throw new Error('viewer.html lacks #root');

createRoot(container).render(
  <StrictMode>
    <PdfViewerPage />
  </StrictMode>,
);
