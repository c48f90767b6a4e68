/**
 * The PDF viewer page: fetches the `?file=` link (only this origin's own links, see
 * resolveViewerFile), draws the pages with the total-character label, and tells the parent
 * frame (the preview dialog) when the first page is drawn or the file cannot be shown.
 */
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PdfViewer } from '../components/preview/PdfViewer';
import { resolveViewerFile, type PdfViewerMessage } from '../components/preview/pdf-viewer-link';

export interface PdfViewerPageProps {
  /** The page's query string and origin; injectable for tests. */
  search?: string;
  origin?: string;
}

type State = { phase: 'loading' } | { phase: 'ready'; blob: Blob } | { phase: 'error'; message: string };

function tellParent(type: PdfViewerMessage['type']): void {
  if (window.parent === window) return;
  // Our own origin only: the message must not reach a foreign page that framed us.
  window.parent.postMessage({ source: 'contest-pdf-viewer', type } satisfies PdfViewerMessage, window.location.origin);
}

export function PdfViewerPage({ search = window.location.search, origin = window.location.origin }: PdfViewerPageProps) {
  const { t } = useTranslation('files');
  const fileUrl = useMemo(() => resolveViewerFile(new URLSearchParams(search).get('file'), origin), [search, origin]);
  const [state, setState] = useState<State>(() =>
    fileUrl ? { phase: 'loading' } : { phase: 'error', message: t('preview.badLink') },
  );

  useEffect(() => {
    if (!fileUrl) {
      tellParent('error');
      return;
    }
    const controller = new AbortController();
    fetch(fileUrl, { signal: controller.signal, credentials: 'same-origin' })
      .then(async (response) => {
        if (!response.ok) throw new Error(`PDF fetch failed: ${response.status}`);
        setState({ phase: 'ready', blob: await response.blob() });
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setState({ phase: 'error', message: t('preview.renderError') });
        tellParent('error');
      });
    return () => controller.abort();
  }, [fileUrl, t]);

  if (state.phase === 'ready') {
    return (
      <PdfViewer
        data={state.blob}
        onRendered={() => tellParent('rendered')}
        onError={() => {
          setState({ phase: 'error', message: t('preview.renderError') });
          tellParent('error');
        }}
      />
    );
  }
  return (
    <div className="pdf-viewer-page__status" role={state.phase === 'error' ? 'alert' : undefined}>
      {state.phase === 'error' ? state.message : t('preview.loading')}
    </div>
  );
}
