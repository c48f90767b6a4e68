export { MultiUpload, toPreviewFile, type MultiUploadProps } from './MultiUpload';
export type { UploadValueItem } from '../../lib/upload';
