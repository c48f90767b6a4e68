import { useState } from 'react';
import { Alert, Button, Empty, Skeleton } from 'antd';
import { DownloadOutlined, EyeOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import dayjs from 'dayjs';
import { DATE_FORMATS, formatFileSize, type DocumentItem } from '@contest/shared';
import { kindOfPreview, usePreviewDialog, type PreviewFetcher, type PreviewFile } from '../../../components/preview';
import { usePageTitle } from '../../../lib/page-title';
import { useUserInfo } from '../../../lib/session';
import { fetchDocumentFile, saveBlob, useDataDocuments } from './module-api';
import { useDataDocName } from '../data-doc-name';
import './participant-pages.css';

function toPreviewFile(doc: DocumentItem): PreviewFile {
  // The id is the document's: the fetcher below looks the document up by it.
  return { id: doc.id, name: doc.file.name, uniqueNo: doc.file.uniqueNo };
}

/**
 * /module: the data documents for approved teams, under the menu name from the settings
 * (dataDocMenuName). The preview has no contest watermark here: the dialog's own rule
 * (docs/rules/screens.md, "File preview") turns it off on exactly this path.
 */
export function ModulePage() {
  const { t } = useTranslation('participant');
  const info = useUserInfo().data;
  const docs = useDataDocuments();
  const { preview, holder } = usePreviewDialog();
  const [busy, setBusy] = useState<string | null>(null);
  const list = Array.isArray(docs.data) ? docs.data : [];
  const title = useDataDocName(info);
  usePageTitle(info?.dataDocMenuName ? title : undefined);

  const fetchFile: PreviewFetcher = async (file, signal) => {
    const doc = list.find((d) => d.id === file.id);
    if (!doc) throw new Error('Unknown document');
    const result = await fetchDocumentFile(doc, { preview: true, signal });
    if (!result) throw new Error('No file');
    return { blob: result.blob, name: result.fileName };
  };

  const download = async (doc: DocumentItem) => {
    setBusy(doc.id);
    try {
      const result = await fetchDocumentFile(doc);
      if (result) saveBlob(result, doc.file.name);
    } catch {
      // The client has shown the reason.
    } finally {
      setBusy(null);
    }
  };

  const previewable = list.filter((doc) => {
    const kind = kindOfPreview(toPreviewFile(doc));
    return kind === 'image' || kind === 'pdf';
  });

  return (
    <section className="participant-page module-page">
      <h1 className="participant-page__title" data-testid="module-title">
        {title}
      </h1>
      {info && info.teamStatus !== 'APPROVED' && (
        <Alert className="module-page__notice" type="info" showIcon title={t('module.notApproved')} />
      )}
      {docs.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : list.length === 0 ? (
        <Empty description={t('module.empty')} />
      ) : (
        <ul className="module-page__list">
          {list.map((doc) => {
            const index = previewable.indexOf(doc);
            return (
              <li key={doc.id} className="module-page__item" data-testid="data-doc">
                <FileOutlined className="module-page__icon" />
                <div className="module-page__text">
                  <span className="module-page__name">{doc.title}</span>
                  <span className="module-page__meta">
                    {doc.file.name} · {formatFileSize(doc.file.size)} · {dayjs(doc.updatedAt).format(DATE_FORMATS.date)}
                  </span>
                </div>
                <div className="module-page__actions">
                  {index >= 0 && (
                    <Button
                      icon={<EyeOutlined />}
                      onClick={() => preview(previewable.map(toPreviewFile), index, { fetchFile })}
                    >
                      {t('module.preview')}
                    </Button>
                  )}
                  <Button
                    type="primary"
                    icon={<DownloadOutlined />}
                    loading={busy === doc.id}
                    onClick={() => void download(doc)}
                  >
                    {t('module.download')}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {holder}
    </section>
  );
}
