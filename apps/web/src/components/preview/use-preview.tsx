import { useCallback, useState, type ReactNode } from 'react';

import { useTranslation } from 'react-i18next';
import { PreviewDialog, type PreviewDialogProps } from './PreviewDialog';
import { kindOfPreview, type PreviewFile } from './preview-file';
import { useFeedback } from '../feedback';

export interface PreviewRequest {
  fetchFile?: PreviewDialogProps['fetchFile'];
  linkFile?: PreviewDialogProps['linkFile'];
  noSwitch?: boolean;
  watermark?: string | null;
}

/**
 * Opens the preview dialog from anywhere in a page: `preview(files, index)`. A file that
 * cannot be shown is answered with a toast instead (压缩文件暂不支持预览 for archives,
 * 当前文件类型不支持预览 otherwise) and the dialog stays closed. Render `holder` once.
 */
export function usePreviewDialog(): {
  preview(files: readonly PreviewFile[], index: number, request?: PreviewRequest): void;
  holder: ReactNode;
} {
  const { t } = useTranslation('files');
  const { message } = useFeedback();
  const [state, setState] = useState<{ open: boolean; files: readonly PreviewFile[]; index: number; request: PreviewRequest }>(
    { open: false, files: [], index: 0, request: {} },
  );

  const preview = useCallback(
    (files: readonly PreviewFile[], index: number, request: PreviewRequest = {}) => {
      const file = files[index];
      if (!file) return;
      const kind = kindOfPreview(file);
      if (kind === 'archive') {
        void message.warning(t('preview.archive'));
        return;
      }
      if (kind === 'unsupported') {
        void message.error(t('preview.unsupported'));
        return;
      }
      setState({ open: true, files, index, request });
    },
    [message, t],
  );

  const holder = (
    <PreviewDialog
      open={state.open}
      files={state.files}
      index={state.index}
      onIndexChange={(index) => setState((s) => ({ ...s, index }))}
      onClose={() => setState((s) => ({ ...s, open: false }))}
      fetchFile={state.request.fetchFile}
      linkFile={state.request.linkFile}
      noSwitch={state.request.noSwitch}
      watermark={state.request.watermark}
    />
  );
  return { preview, holder };
}
