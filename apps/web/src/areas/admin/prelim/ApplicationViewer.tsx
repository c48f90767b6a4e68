import { useState } from 'react';
import { Button, Empty, Spin, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContestAttachment } from '@contest/shared';
import { downloadAttachment } from '../../../components/contest';
import { PdfFrame } from '../../../components/preview/PdfFrame';
import { PRELIM_QUERY_KEYS, fetchFileAccessUrl } from './prelim-api';

/**
 * The application PDF open in the viewer page (/pdf/web/viewer.html) inside the audit page, read
 * through a short-lived signed link (GET /attachment/accessUrl): the frame needs no token. A
 * spinner until the first page is drawn; when it cannot be shown, a download instead.
 */
export function ApplicationViewer({ file }: { file: ContestAttachment | null }) {
  const { t } = useTranslation('admin');
  const [phase, setPhase] = useState<'loading' | 'rendered' | 'error'>('loading');
  const link = useQuery({
    queryKey: PRELIM_QUERY_KEYS.accessUrl(file?.filePath ?? ''),
    queryFn: () => fetchFileAccessUrl(file?.filePath ?? ''),
    enabled: file !== null,
    // The link lives 15 minutes; the viewer reads the file once, so a fresh one per opening.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  if (!file) {
    return (
      <div className="prelim-viewer prelim-viewer--empty" data-testid="application-viewer">
        <Empty description={t('pages.prelim.viewer.noApplication')} />
      </div>
    );
  }
  const failed = phase === 'error' || link.isError || (link.isSuccess && !link.data);
  return (
    <div className="prelim-viewer" data-testid="application-viewer">
      {failed ? (
        <div className="prelim-viewer__error" role="alert">
          <Typography.Text type="secondary">{t('pages.prelim.viewer.error')}</Typography.Text>
          <Button icon={<DownloadOutlined />} onClick={() => void downloadAttachment(file)}>
            {t('pages.prelim.viewer.download')}
          </Button>
        </div>
      ) : (
        <>
          {link.data && (
            <PdfFrame url={link.data} title={file.name} onRendered={() => setPhase('rendered')} onError={() => setPhase('error')} />
          )}
          {phase === 'loading' && (
            <div className="prelim-viewer__loading">
              <Spin />
            </div>
          )}
        </>
      )}
    </div>
  );
}
