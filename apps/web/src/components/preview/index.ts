export { PreviewDialog, type PreviewDialogProps } from './PreviewDialog';
export { usePreviewDialog, type PreviewRequest } from './use-preview';
export {
  fetchPreviewFile,
  isMediaKind,
  kindOfPreview,
  linkPreviewFile,
  previewCacheKey,
  type FetchedPreview,
  type PreviewDialogKind,
  type PreviewFetcher,
  type PreviewFile,
  type PreviewLink,
  type PreviewLinker,
} from './preview-file';
export { previewWatermarkText } from './preview-watermark';
