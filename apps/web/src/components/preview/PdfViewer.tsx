/**
 * PDF pages drawn with pdf.js in the dialog. Pages render when scrolled near, at the
 * container's width, and redraw 200 ms after the container stops resizing (docs/rules/screens.md, "File preview").
 * The label above the pages shows the text's character count (docs/rules/prelim.md, "The application's character count").
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openPdf, type PDFDocumentProxy, type RenderTask } from './pdfjs';
import { countCharacters, pageText, type PdfTextItem } from './pdf-text';
import './pdf-viewer.css';

/** Delay before pages are redrawn for a new container width. */
export const RESIZE_REDRAW_MS = 200;
/** Grey margin left and right of the pages, so a page's edge shows against the background. */
const PAGE_GUTTER = 16;
/** Pages fit the width, up to a comfortable reading width on wide screens. */
const MAX_PAGE_WIDTH = 960;

export interface PdfViewerProps {
  data: Blob;
  /** The first page is on screen. */
  onRendered(): void;
  onError(error: unknown): void;
}

export function PdfViewer({ data, onRendered, onError }: PdfViewerProps) {
  const { t } = useTranslation('files');
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [chars, setChars] = useState<number | 'failed' | null>(null);
  const containerRef = useRef<HTMLDivElement>(null);
  const containerWidth = useDebouncedWidth(containerRef, RESIZE_REDRAW_MS);
  const width = Math.min(Math.max(containerWidth - 2 * PAGE_GUTTER, 0), MAX_PAGE_WIDTH);
  const callbacks = useRef({ onRendered, onError });
  callbacks.current = { onRendered, onError };

  useEffect(() => {
    let cancelled = false;
    let loaded: PDFDocumentProxy | null = null;
    let task: ReturnType<typeof openPdf> | null = null;
    void (async () => {
      const bytes = new Uint8Array(await data.arrayBuffer());
      if (cancelled) return;
      task = openPdf(bytes);
      loaded = await task.promise;
      if (cancelled) return;
      setDoc(loaded);
      try {
        setChars(await countDocumentCharacters(loaded, () => cancelled));
      } catch {
        if (!cancelled) setChars('failed');
      }
    })().catch((err: unknown) => {
      if (!cancelled) callbacks.current.onError(err);
    });
    return () => {
      cancelled = true;
      void task?.destroy();
      void loaded?.destroy();
    };
  }, [data]);

  return (
    <div className="pdf-viewer">
      <div className="pdf-viewer__bar" data-testid="pdf-char-count">
        {doc && <span>{t('preview.pages', { count: doc.numPages })}</span>}
        <span>
          {chars === null
            ? doc && t('preview.counting')
            : chars === 'failed'
              ? t('preview.textFailed')
              : t('preview.charCount', { count: chars })}
        </span>
      </div>
      <div className="pdf-viewer__pages" ref={containerRef}>
        {doc &&
          width > 0 &&
          Array.from({ length: doc.numPages }, (_, i) => (
            <PdfPage
              key={i}
              doc={doc}
              pageNumber={i + 1}
              width={width}
              onRendered={i === 0 ? () => callbacks.current.onRendered() : undefined}
              onError={(err) => callbacks.current.onError(err)}
            />
          ))}
      </div>
    </div>
  );
}

async function countDocumentCharacters(doc: PDFDocumentProxy, cancelled: () => boolean): Promise<number | null> {
  let total = 0;
  for (let n = 1; n <= doc.numPages; n += 1) {
    if (cancelled()) return null;
    const page = await doc.getPage(n);
    const content = await page.getTextContent();
    total += countCharacters(pageText(content.items as PdfTextItem[]));
    page.cleanup();
  }
  return total;
}

/** The element's content width, updated `delayMs` after the last resize. */
function useDebouncedWidth(ref: React.RefObject<HTMLElement | null>, delayMs: number): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new ResizeObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setWidth(element.clientWidth), delayMs);
    });
    observer.observe(element);
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [ref, delayMs]);
  return width;
}

interface PdfPageProps {
  doc: PDFDocumentProxy;
  pageNumber: number;
  width: number;
  onRendered?: () => void;
  onError(error: unknown): void;
}

/** One page: a placeholder of the right height until it nears the viewport, then a canvas. */
function PdfPage({ doc, pageNumber, width, onRendered, onError }: PdfPageProps) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [near, setNear] = useState(pageNumber <= 2);
  const [ratio, setRatio] = useState(Math.SQRT2);

  useEffect(() => {
    if (near || typeof IntersectionObserver === 'undefined') {
      setNear(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin: '400px 0px' },
    );
    if (wrapperRef.current) observer.observe(wrapperRef.current);
    return () => observer.disconnect();
  }, [near]);

  useEffect(() => {
    if (!near) return;
    let cancelled = false;
    let task: RenderTask | null = null;
    void (async () => {
      const page = await doc.getPage(pageNumber);
      if (cancelled) return;
      const base = page.getViewport({ scale: 1 });
      setRatio(base.height / base.width);
      const viewport = page.getViewport({ scale: width / base.width });
      const canvas = canvasRef.current;
      if (!canvas) return;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.floor(viewport.width * dpr);
      canvas.height = Math.floor(viewport.height * dpr);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      task = page.render({ canvas, viewport, transform: dpr === 1 ? undefined : [dpr, 0, 0, dpr, 0, 0] });
      await task.promise;
      if (!cancelled) onRendered?.();
    })().catch((err: unknown) => {
      // A render cancelled by a resize or by leaving the file is not an error.
      if (!cancelled && (err as { name?: string } | null)?.name !== 'RenderingCancelledException') onError(err);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
    // The callbacks change identity on every render of the viewer; a redraw for that would be waste.
  }, [doc, pageNumber, width, near]);

  return (
    <div className="pdf-viewer__page" ref={wrapperRef} style={{ width, minHeight: Math.floor(width * ratio) }}>
      <canvas ref={canvasRef} data-page={pageNumber} />
    </div>
  );
}
