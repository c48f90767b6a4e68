import { useState } from 'react';
import { Button } from 'antd';
import { DownloadOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatFileSize, type DocumentItem } from '@contest/shared';
import { downloadDocument } from '../site-api';

/** Downloadable documents as a list of buttons; renders nothing when there are none. */
export function DocumentLinks({ title, documents }: { title: string; documents: readonly DocumentItem[] }) {
  const { t } = useTranslation('site');
  const [busy, setBusy] = useState<string | null>(null);
  if (documents.length === 0) return null;
  const download = async (doc: DocumentItem) => {
    setBusy(doc.id);
    try {
      await downloadDocument(doc);
    } catch {
      // The client has shown the reason.
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="site-docs" data-testid="site-docs">
      <h2 className="site-docs__title">{title}</h2>
      <ul className="site-docs__list">
        {documents.map((doc) => (
          <li key={doc.id} className="site-docs__item">
            <FileOutlined className="site-docs__icon" />
            <span className="site-docs__name">{doc.title}</span>
            <span className="site-docs__size">{formatFileSize(doc.file.size)}</span>
            <Button
              size="small"
              icon={<DownloadOutlined />}
              loading={busy === doc.id}
              aria-label={t('guide.downloadOf', { title: doc.title })}
              onClick={() => void download(doc)}
            >
              {t('guide.download')}
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
