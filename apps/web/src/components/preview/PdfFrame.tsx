/**
 * A PDF in the preview dialog: the viewer page (/pdf/web/viewer.html) in a
 * same-origin frame, given the dialog's blob link. The page reports back through postMessage;
 * only messages from this very frame and this origin are believed.
 */
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isPdfViewerMessage, pdfViewerUrl } from './pdf-viewer-link';

export interface PdfFrameProps {
  /** The file's link: the dialog's blob: link, or a same-origin attachment link. */
  url: string;
  title: string;
  /** The first page is on screen. */
  onRendered(): void;
  onError(): void;
}

export function PdfFrame({ url, title, onRendered, onError }: PdfFrameProps) {
  const { t } = useTranslation('files');
  const frameRef = useRef<HTMLIFrameElement>(null);
  const callbacks = useRef({ onRendered, onError });
  callbacks.current = { onRendered, onError };

  useEffect(() => {
    const listener = (event: MessageEvent) => {
      if (event.origin !== window.location.origin) return;
      if (!frameRef.current || event.source !== frameRef.current.contentWindow) return;
      if (!isPdfViewerMessage(event.data)) return;
      if (event.data.type === 'rendered') callbacks.current.onRendered();
      else callbacks.current.onError();
    };
    window.addEventListener('message', listener);
    return () => window.removeEventListener('message', listener);
  }, []);

  return (
    <iframe
      ref={frameRef}
      className="preview-dialog__pdf-frame"
      src={pdfViewerUrl(url)}
      title={title || t('preview.title')}
      data-testid="pdf-frame"
    />
  );
}
