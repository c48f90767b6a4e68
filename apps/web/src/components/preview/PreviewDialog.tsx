/**
 * The file preview dialog (docs/rules/screens.md, "File preview"): images, PDFs, videos and audio, previous/next
 * arrows on hover, a loading overlay, an error text, and the contest watermark over the content.
 * Images and PDFs: each shown file gets a blob link that is revoked as soon as the file changes
 * or the dialog closes; fetched bytes are cached by file while the dialog stays open. PDFs show
 * in the viewer page (/pdf/web/viewer.html) in a frame, which reads that blob link: the bytes are
 * fetched here, with the realm's token, and the frame needs no token of its own.
 * Video and audio are never fetched into a blob (a 500 MB video would go through Node and sit
 * whole in memory): the player gets a signed link with redirect=1 and streams from the store
 * (S3, presigned) or from Node with ranges (disk). A fresh link is asked for each time a file is
 * shown, since signed links live for minutes.
 */
import { useEffect, useRef, useState } from 'react';
import { Modal, Spin, Watermark } from 'antd';
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { PREVIEW_WATERMARK } from '@contest/shared';
import { realmOfPath } from '../../api';
import { ImageViewer } from './ImageViewer';
import { MediaPlayer } from './MediaPlayer';
import { PdfFrame } from './PdfFrame';
import {
  fetchPreviewFile,
  isMediaKind,
  kindOfPreview,
  linkPreviewFile,
  previewCacheKey,
  type FetchedPreview,
  type PreviewDialogKind,
  type PreviewFetcher,
  type PreviewFile,
  type PreviewLinker,
} from './preview-file';
import { previewWatermarkText } from './preview-watermark';
import './preview-dialog.css';
import { useFeedback } from '../feedback';
import { useContestName } from '../../lib/contest-name';

export interface PreviewDialogProps {
  open: boolean;
  files: readonly PreviewFile[];
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
  /** Loads a file's bytes; the attachment stream by default. */
  fetchFile?: PreviewFetcher;
  /** Gives a video's or audio file's streaming link; a signed attachment link by default. */
  linkFile?: PreviewLinker;
  /** Hides the previous/next arrows. */
  noSwitch?: boolean;
  /** Overrides the watermark text (null for none); by default the spec's rule decides. */
  watermark?: string | null;
}

type View =
  | { phase: 'loading' }
  | { phase: 'ready'; kind: PreviewDialogKind; url: string; name: string }
  | { phase: 'error'; message: string };

/** The spec's rule, from the page path; experts are the users of the expert area. */
function defaultWatermark(contestName: string): string | null {
  const { pathname } = window.location;
  return previewWatermarkText(pathname, realmOfPath(pathname) === 'EXPERT' ? 'EXPERT' : null, contestName);
}

export function PreviewDialog({
  open,
  files,
  index,
  onIndexChange,
  onClose,
  fetchFile = fetchPreviewFile,
  linkFile = linkPreviewFile,
  noSwitch = false,
  watermark,
}: PreviewDialogProps) {
  const { t } = useTranslation('files');
  const contestName = useContestName();
  const { message } = useFeedback();
  const file = open ? files[index] : undefined;
  const [view, setView] = useState<View>({ phase: 'loading' });
  const [rendered, setRendered] = useState(false);
  // Changes on every switch so the viewer starts afresh (rotation, zoom, scroll) even for the same file.
  const [timestamp, setTimestamp] = useState(0);
  const cache = useRef(new Map<string, FetchedPreview>());
  const fetcher = useRef(fetchFile);
  fetcher.current = fetchFile;
  const linker = useRef(linkFile);
  linker.current = linkFile;

  useEffect(() => {
    if (!open) cache.current.clear();
  }, [open]);

  const key = file ? previewCacheKey(file) : null;
  useEffect(() => {
    if (!file || key === null) return;
    setRendered(false);
    const kind = kindOfPreview(file);
    if (kind === 'archive' || kind === 'unsupported') {
      setView({ phase: 'error', message: t(kind === 'archive' ? 'preview.archive' : 'preview.unsupported') });
      return;
    }
    setView({ phase: 'loading' });
    const controller = new AbortController();
    let cancelled = false;
    let url: string | null = null;
    const onFailed = () => {
      if (!cancelled) setView({ phase: 'error', message: t('preview.renderError') });
    };
    if (isMediaKind(kind) && !file.fileData) {
      // Not cached: a signed link dies within minutes, and asking for one is cheap.
      linker.current(file, controller.signal).then((link) => {
        if (!cancelled) setView({ phase: 'ready', kind, url: link.url, name: link.name || file.name });
      }, onFailed);
      return () => {
        cancelled = true;
        controller.abort();
      };
    }
    const cached = cache.current.get(key);
    (cached ? Promise.resolve(cached) : fetcher.current(file, controller.signal))
      .then((result) => {
        if (cancelled) return;
        cache.current.set(key, result);
        url = URL.createObjectURL(result.blob);
        setView({ phase: 'ready', kind, url, name: result.name || file.name });
      })
      .catch(onFailed);
    return () => {
      cancelled = true;
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
    // `file` is captured through its key: a new array with the same file must not refetch.
  }, [key, timestamp, t]);

  const go = (step: -1 | 1) => {
    const next = index + step;
    if (next < 0) {
      void message.warning(t('preview.first'));
      return;
    }
    if (next >= files.length) {
      void message.warning(t('preview.last'));
      return;
    }
    setTimestamp(Date.now());
    onIndexChange(next);
  };

  const renderError = () => setView({ phase: 'error', message: t('preview.renderError') });
  const loading = view.phase === 'loading' || (view.phase === 'ready' && !rendered);
  const watermarkText = watermark === undefined ? defaultWatermark(contestName) : watermark;
  const title = view.phase === 'ready' ? view.name : (file?.name ?? t('preview.title'));

  const content = (
    <div className="preview-dialog__content">
      {view.phase === 'error' && (
        <div className="preview-dialog__error" role="alert">
          {view.message}
        </div>
      )}
      {view.phase === 'ready' && view.kind === 'image' && (
        <ImageViewer
          key={`${key}-${timestamp}`}
          src={view.url}
          alt={view.name}
          onRendered={() => setRendered(true)}
          onError={renderError}
        />
      )}
      {view.phase === 'ready' && (view.kind === 'video' || view.kind === 'audio') && (
        <MediaPlayer
          key={`${key}-${timestamp}`}
          kind={view.kind}
          src={view.url}
          name={view.name}
          onRendered={() => setRendered(true)}
          onError={renderError}
          relink={file && !view.url.startsWith('blob:') ? () => linker.current(file, new AbortController().signal).then((link) => link.url) : undefined}
        />
      )}
      {view.phase === 'ready' && view.kind === 'pdf' && (
        <PdfFrame
          key={`${key}-${timestamp}`}
          url={view.url}
          title={view.name}
          onRendered={() => setRendered(true)}
          onError={renderError}
        />
      )}
    </div>
  );

  return (
    <Modal
      open={open}
      title={<span data-testid="preview-title">{title}</span>}
      footer={null}
      onCancel={onClose}
      width="min(1100px, 92vw)"
      centered
      destroyOnHidden
      className="preview-dialog"
    >
      <div className="preview-dialog__body" data-testid="preview-body" data-loading={loading}>
        {watermarkText ? (
          <Watermark
            content={watermarkText}
            font={{ fontSize: PREVIEW_WATERMARK.fontSize }}
            zIndex={PREVIEW_WATERMARK.zIndex}
            className="preview-dialog__watermark"
          >
            {content}
          </Watermark>
        ) : (
          content
        )}
        {!noSwitch && (
          <>
            <button
              type="button"
              className="preview-dialog__arrow preview-dialog__arrow--prev"
              aria-label={t('preview.prev')}
              onClick={() => go(-1)}
            >
              <LeftOutlined />
            </button>
            <button
              type="button"
              className="preview-dialog__arrow preview-dialog__arrow--next"
              aria-label={t('preview.next')}
              onClick={() => go(1)}
            >
              <RightOutlined />
            </button>
          </>
        )}
        {loading && (
          <div className="preview-dialog__loading" data-testid="preview-loading">
            <Spin description={t('preview.loading')}>
              <div className="preview-dialog__spin-area" />
            </Spin>
          </div>
        )}
      </div>
    </Modal>
  );
}
