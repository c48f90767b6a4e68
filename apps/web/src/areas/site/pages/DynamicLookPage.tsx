import { Alert, Button, Result } from 'antd';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { NewsArticle } from '../components/NewsArticle';
import { useNewsPreview } from '../site-api';
import '../site-pages.css';

/**
 * /dynamic-look?id=: the admin's preview of an article in any status (docs/rules/content.md, "News"). It reads
 * with the AdminToken, so an admin previews from the console in a new tab of the same browser.
 */
export function DynamicLookPage() {
  const { t } = useTranslation('site');
  const [params] = useSearchParams();
  const id = params.get('id');
  const { data, isLoading, error } = useNewsPreview(id);
  const status = (error as { status?: number } | null)?.status;
  const failure =
    status === 401 ? (
      <Result
        status="403"
        title={t('preview.needAdmin')}
        extra={
          <Link to="/admin/login">
            <Button type="primary">{t('preview.toAdminLogin')}</Button>
          </Link>
        }
      />
    ) : (
      <Result status="404" title={t('news.notFound')} />
    );
  return (
    <NewsArticle
      news={data}
      loading={isLoading}
      failure={failure}
      neighbours={false}
      notice={<Alert className="news-article__notice" type="warning" showIcon title={t('preview.notice')} />}
    />
  );
}
