import { Button, Descriptions, Space, Typography } from 'antd';
import { DownloadOutlined, EyeOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatFileSize, previewKindOf, type ContestAttachment, type ExpertProjectDetail } from '@contest/shared';
import { VideoPlayer, downloadAttachment } from '../../../components/contest';
import { usePreviewDialog, type PreviewFile } from '../../../components/preview';

const isPreviewable = (file: ContestAttachment) => ['image', 'pdf'].includes(previewKindOf(file.name));

const toPreviewFile = (file: ContestAttachment): PreviewFile => ({
  id: file.uniqueNo,
  uniqueNo: file.uniqueNo,
  name: file.name,
  filePath: file.filePath,
});

export interface ReviewFilesProps {
  detail: Pick<ExpertProjectDetail, 'application' | 'applicationChars' | 'presentation' | 'video' | 'others' | 'download'>;
  /** The expert's own mark (code and masked account) over every previewed page. */
  watermark: string | null;
}

/**
 * The project's materials: the application PDF and the presentation open in the preview dialog
 * (PDF viewer, images) under the expert's watermark, switching between the previewable files;
 * the video plays in the page. 下载 only where 专家下载材料 allows it (off by default: preview only;
 * 'pdf': PDFs, which the server stamps with the expert's watermark; 'all': every file), as the
 * server enforces (403 otherwise, docs/security.md "Blind review"). The server answers 404 for a
 * project not assigned to the expert or in conflict, files included.
 */
export function ReviewFiles({ detail, watermark }: ReviewFilesProps) {
  const { t } = useTranslation('expert');
  const { preview, holder } = usePreviewDialog();
  const groups: { key: 'application' | 'presentation' | 'video' | 'others'; files: ContestAttachment[] }[] = [
    { key: 'application', files: detail.application ? [detail.application] : [] },
    { key: 'presentation', files: detail.presentation ? [detail.presentation] : [] },
    { key: 'video', files: detail.video ? [detail.video] : [] },
    { key: 'others', files: detail.others ?? [] },
  ];
  const previewable = groups.flatMap((g) => g.files).filter(isPreviewable);
  const downloadable = (file: ContestAttachment) => detail.download === 'all' || (detail.download === 'pdf' && file.extension === 'pdf');
  const open = (file: ContestAttachment) =>
    preview(previewable.map(toPreviewFile), previewable.indexOf(file), { watermark });

  const row = (file: ContestAttachment) => (
    <div key={file.uniqueNo} className="expert-files__row" data-testid="review-file">
      <FileOutlined aria-hidden />
      <span className="expert-files__name" title={file.name}>
        {file.name}
      </span>
      <Typography.Text type="secondary" className="expert-files__size">
        {formatFileSize(file.size)}
      </Typography.Text>
      <Space size={0} className="expert-files__actions">
        {isPreviewable(file) && (
          <Button
            type="link"
            size="small"
            icon={<EyeOutlined />}
            aria-label={t('detail.files.previewOf', { name: file.name })}
            onClick={() => open(file)}
            data-testid="file-preview"
          >
            {t('detail.files.preview')}
          </Button>
        )}
        {downloadable(file) && (
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            aria-label={t('detail.files.downloadOf', { name: file.name })}
            onClick={() => void downloadAttachment(file).catch(() => undefined)}
            data-testid="file-download"
          >
            {t('detail.files.download')}
          </Button>
        )}
      </Space>
    </div>
  );

  return (
    <div className="expert-files" data-testid="review-files">
      <Descriptions
        column={1}
        size="small"
        layout="vertical"
        items={groups.map((group) => ({
          key: group.key,
          label:
            group.key === 'application' && detail.applicationChars !== null
              ? t('detail.files.applicationWithChars', { count: detail.applicationChars })
              : t(`detail.files.${group.key}`),
          children:
            group.files.length > 0 ? (
              <div className="expert-files__list">
                {group.files.map(row)}
                {/* The video plays in the page (a short-lived signed link, asked for on play). */}
                {group.key === 'video' && detail.video && <VideoPlayer file={detail.video} />}
              </div>
            ) : (
              <Typography.Text type="secondary">{t('detail.files.none')}</Typography.Text>
            ),
        }))}
      />
      {holder}
    </div>
  );
}
