import { Button, Space, Typography } from 'antd';
import { DownloadOutlined, EyeOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatFileSize, previewKindOf, type ContestAttachment } from '@contest/shared';
import { usePreviewDialog } from '../../../components/preview';
import { downloadAttachment } from './contest-api';

/**
 * Stored files of a record, each with preview (images and PDFs, through the preview dialog)
 * and download. The preview can switch between the record's previewable files.
 */
export function AttachmentList({ files }: { files: readonly (ContestAttachment | null)[] }) {
  const { t } = useTranslation('signup');
  const { preview, holder } = usePreviewDialog();
  const present = files.filter((f): f is ContestAttachment => f !== null);
  if (present.length === 0) return <Typography.Text type="secondary">{t('common.noFile')}</Typography.Text>;
  const previewable = present.filter((f) => ['image', 'pdf'].includes(previewKindOf(f.name)));
  const open = (file: ContestAttachment) =>
    preview(
      previewable.map((f) => ({ id: f.uniqueNo, uniqueNo: f.uniqueNo, name: f.name, filePath: f.filePath })),
      previewable.indexOf(file),
    );
  return (
    <div className="contest-files">
      {present.map((file) => (
        <div key={file.uniqueNo} className="contest-files__row" data-testid="attachment-row">
          <FileOutlined />
          <span className="contest-files__name" title={file.name}>
            {file.name}
          </span>
          <Typography.Text type="secondary" className="contest-files__size">
            {formatFileSize(file.size)}
          </Typography.Text>
          <Space size={0} className="contest-files__actions">
            {previewable.includes(file) && (
              <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => open(file)}>
                {t('common.preview')}
              </Button>
            )}
            <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => void downloadAttachment(file)}>
              {t('common.download')}
            </Button>
          </Space>
        </div>
      ))}
      {holder}
    </div>
  );
}
