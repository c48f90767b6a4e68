/**
 * A holder's own certificates or letters (docs/certificates.md, "Web pages"): the participant's team
 * (我的证书) and the expert (我的聘书与感谢信) read the same list: kind, award, status, issue date,
 * serial, the PDF and the public verification page. Loading, failure (with a retry) and the empty
 * state before anything is issued are the list's own.
 */
import { useState } from 'react';
import { Alert, Button, Empty, Skeleton, Typography } from 'antd';
import { DownloadOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { certificateVerifyPath, type MyCertificate } from '@contest/shared';
import { api } from '../../lib/api';
import { beijingTimeLabel } from '../../lib/beijing-time';
import { saveBlob } from '../../lib/save-blob';
import { CertificateStatusTag } from './CertificateStatusTag';
import { apiPathOf } from './certificate-text';
import './certificates.css';

export interface MyCertificateListProps {
  certificates: MyCertificate[] | undefined;
  loading: boolean;
  failed: boolean;
  onRetry(): void;
  /** Shown when nothing was issued yet. */
  emptyText: string;
}

export function MyCertificateList({ certificates, loading, failed, onRetry, emptyText }: MyCertificateListProps) {
  const { t } = useTranslation('certificates');
  if (loading) return <Skeleton active paragraph={{ rows: 3 }} data-testid="my-certificates-loading" />;
  if (failed) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('mine.loadFailed')}
        action={
          <Button size="small" onClick={onRetry}>
            {t('common.reload')}
          </Button>
        }
        data-testid="my-certificates-failed"
      />
    );
  }
  if (!certificates || certificates.length === 0) {
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} data-testid="my-certificates-empty" />;
  }
  return (
    <ul className="my-certificates" data-testid="my-certificates">
      {certificates.map((c) => (
        <CertificateItem key={c.id} certificate={c} />
      ))}
    </ul>
  );
}

function CertificateItem({ certificate: c }: { certificate: MyCertificate }) {
  const { t } = useTranslation('certificates');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const result = await api.get(apiPathOf(c.downloadPath), { responseType: 'blob' });
      if ('blob' in result) saveBlob(result, `${c.serial}.pdf`);
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(false);
    }
  };
  const title = [t(`kind.${c.kind}`), c.award].filter(Boolean).join(' · ');
  return (
    <li className="my-certificate" data-testid="my-certificate" data-serial={c.serial}>
      <div className="my-certificate__main">
        <div className="my-certificate__title">
          <strong>{title}</strong>
          <CertificateStatusTag status={c.status} />
        </div>
        {c.projectName && <div className="my-certificate__project">{c.projectName}</div>}
        <dl className="my-certificate__facts">
          <div>
            <dt>{t('mine.columns.issuedAt')}</dt>
            <dd>{beijingTimeLabel(c.issuedAt, 'date')}</dd>
          </div>
          <div>
            <dt>{t('mine.columns.serial')}</dt>
            <dd className="my-certificate__serial" data-testid="my-certificate-serial">
              {c.serial}
            </dd>
          </div>
        </dl>
        {c.status === 'SUPERSEDED' && c.successorSerial && (
          <Typography.Text type="secondary" className="my-certificate__note">
            {t('mine.superseded', { serial: c.successorSerial })}
          </Typography.Text>
        )}
      </div>
      <div className="my-certificate__actions">
        <Button
          type={c.status === 'VALID' ? 'primary' : 'default'}
          icon={<DownloadOutlined />}
          loading={busy}
          onClick={() => void download()}
          aria-label={`${t('common.downloadPdf')} ${title}`}
          data-testid="my-certificate-download"
        >
          {t('common.downloadPdf')}
        </Button>
        <Link to={c.verifyPath || certificateVerifyPath(c.serial)} className="my-certificate__verify" target="_blank" rel="noopener">
          <SafetyCertificateOutlined /> {t('common.verifyLink')}
        </Link>
      </div>
    </li>
  );
}
