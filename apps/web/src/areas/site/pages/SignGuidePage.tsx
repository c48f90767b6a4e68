import { Empty, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { DocumentLinks } from '../components/DocumentLinks';
import { RichHtml } from '../../../components/rich-text/RichHtml';
import { useDocuments, useSiteBlock } from '../site-api';
import '../site-pages.css';

/** /sign-guide: the guide edited in the console (site block sign-guide), then its downloads. */
export function SignGuidePage() {
  const { t } = useTranslation('site');
  const block = useSiteBlock('sign-guide');
  const guides = useDocuments('GUIDE').data;
  const templates = useDocuments('TEMPLATE').data;
  const body = typeof block.data?.body === 'string' ? block.data.body.trim() : '';
  const documents = [...(Array.isArray(guides) ? guides : []), ...(Array.isArray(templates) ? templates : [])];
  return (
    <section className="site-page guide-page">
      <h1 className="site-page__title">{t('titles.signGuide')}</h1>
      <div className="site-panel">
        {block.isPending ? (
          <Skeleton active paragraph={{ rows: 8 }} />
        ) : body ? (
          <>
            {block.data?.title && <h2 className="guide-page__heading">{block.data.title}</h2>}
            <RichHtml html={body} testId="guide-body" />
          </>
        ) : (
          <Empty className="site-empty" description={t('guide.empty')} />
        )}
      </div>
      <DocumentLinks title={t('guide.downloads')} documents={documents} />
    </section>
  );
}
