import { Button, Space, Typography } from 'antd';
import { DownloadOutlined, EyeOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatFileSize, previewKindOf, type ContestAttachment } from '@contest/shared';
import { usePreviewDialog } from '../preview';
import { downloadAttachment } from './contest-common';
import './contest.css';

/**
 * Stored files of a record, each with preview (images and PDFs, through the preview dialog)
 * and download. The preview can switch between the record's previewable files. Both go through
 * the shared client, which sends the token of the page's realm: on an /admin page the
 * AdminToken, on an /expert page the ExpertToken, elsewhere the participant's.
 */
export function AttachmentList({ files }: { files: readonly (ContestAttachment | null)[] }) {
  const { t } = useTranslation('files');
  const { preview, holder } = usePreviewDialog();
  const present = files.filter((f): f is ContestAttachment => f !== null);
  if (present.length === 0) return <Typography.Text type="secondary">{t('contest.noFile')}</Typography.Text>;
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
                {t('contest.preview')}
              </Button>
            )}
            <Button type="link" size="small" icon={<DownloadOutlined />} onClick={() => void downloadAttachment(file)}>
              {t('contest.download')}
            </Button>
          </Space>
        </div>
      ))}
      {holder}
    </div>
  );
}
