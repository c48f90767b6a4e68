export { PreviewDialog, type PreviewDialogProps } from './PreviewDialog';
export { usePreviewDialog, type PreviewRequest } from './use-preview';
export {
  fetchPreviewFile,
  kindOfPreview,
  previewCacheKey,
  type FetchedPreview,
  type PreviewFetcher,
  type PreviewFile,
} from './preview-file';
export { previewWatermarkText } from './preview-watermark';
