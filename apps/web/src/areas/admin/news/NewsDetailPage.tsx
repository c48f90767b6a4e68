import { Alert, Button, Descriptions, Result, Skeleton, Space, Tabs, Tag } from 'antd';
import { CalendarOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { AdminNewsDetail } from '@contest/shared';
import { ApiError } from '../../../api';
import { beijingTitle, formatDateTime, formatDateTimeLabel } from '../../../components/admin-kit';
import { Permission } from '../../../lib/permission';
import { RichHtml } from '../../../components/rich-text/RichHtml';
import { beijingDay } from './news-format';
import { LIST_PATH, NEWS_QUERY_KEYS, editPath, fetchNewsDetail, previewPath } from './news-api';
import { NewsStatusTag } from './NewsStatusTag';
import { useNewsActions } from './use-news-actions';

import './news.css';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';

interface Shown {
  title: string;
  summary: string;
  body: string;
}

/** One language of the article as the public page shows it (the English one falls back per field). */
function ArticleView({ article, shown }: { article: AdminNewsDetail; shown: Shown }) {
  const { t } = useTranslation('site');
  const { t: tn } = useTranslation('newsAdmin');
  return (
    <article className="news-article news-detail-admin__article" data-testid="news-article">
      <h2 className="news-article__title">{shown.title}</h2>
      <p className="news-article__meta">
        {article.pinned && <Tag color="red">{t('news.pinned')}</Tag>}
        <span>
          <CalendarOutlined />{' '}
          <time dateTime={article.publishAt ?? undefined}>{article.publishAt ? beijingDay(article.publishAt) : tn('detail.unpublished')}</time>
        </span>
        {article.source && <span>{t('news.source', { source: article.source })}</span>}
      </p>
      {shown.summary && <p className="news-detail-admin__summary">{shown.summary}</p>}
      <RichHtml html={shown.body} className="news-article__body" testId="article-body" />
    </article>
  );
}

/**
 * /admin/user/siteContentManagement-detail/{id}: the article in both languages as the public page
 * would show it, with its state and the actions the account holds.
 */
export function NewsDetailPage() {
  const { id } = useParams();
  const { t } = useTranslation('newsAdmin');
  const navigate = useNavigate();
  const actions = useNewsActions((action) => {
    if (action === 'delete') void navigate(LIST_PATH);
  });
  const query = useQuery({ queryKey: NEWS_QUERY_KEYS.detail(id ?? ''), queryFn: () => fetchNewsDetail(id!), enabled: !!id, retry: false });

  const back = (
    <Button onClick={() => void navigate(LIST_PATH)} data-testid="news-back">
      {t('actions.back')}
    </Button>
  );
  // The error states keep the page's one h1 (the route's title) for screen readers.
  if (!id)
    return (
      <>
        <HiddenPageHeading />
        <Result status="404" title={t('detail.noId')} extra={back} />
      </>
    );
  if (query.isError) {
    const missing = query.error instanceof ApiError && query.error.status === 404;
    return (
      <>
        <HiddenPageHeading />
        <Result
          status={missing ? '404' : 'warning'}
          title={missing ? t('detail.notFound') : t('edit.loadFailed')}
          extra={missing ? back : <Button onClick={() => void query.refetch()}>{t('actions.reload')}</Button>}
        />
      </>
    );
  }
  const article = query.data;
  if (!article) return <Skeleton active paragraph={{ rows: 12 }} />;

  const hasEnglish = Boolean(article.titleEn || article.summaryEn || article.bodyEn);
  const english: Shown = { title: article.titleEn || article.title, summary: article.summaryEn || article.summary, body: article.bodyEn || article.body };

  return (
    <section className="admin-page news-detail-admin" data-testid="news-detail-page">
      <div className="news-edit__head">
        <h1 className="admin-page__title">{article.title}</h1>
        <NewsStatusTag status={article.status} scheduled={article.scheduled} />
      </div>
      <Space wrap className="news-detail-admin__actions">
        {back}
        <Permission codes={['news:edit']}>
          <Button type="primary" onClick={() => void navigate(editPath(article.id))} data-testid="news-edit">
            {t('actions.edit')}
          </Button>
        </Permission>
        <Button href={previewPath(article.id)} target="_blank" rel="noopener" data-testid="news-preview">
          {t('actions.preview')}
        </Button>
        <Permission codes={['news:publish']}>
          {article.status === 'PUBLISHED' ? (
            <Button onClick={() => actions.offline(article)} data-testid="news-offline">
              {t('actions.offline')}
            </Button>
          ) : (
            <Button onClick={() => actions.publish(article)} data-testid="news-publish">
              {t('actions.publish')}
            </Button>
          )}
          <Button onClick={() => actions.pin(article)} data-testid="news-pin">
            {article.pinned ? t('actions.unpin') : t('actions.pin')}
          </Button>
        </Permission>
        <Permission codes={['news:delete']}>
          <Button danger onClick={() => actions.remove(article)} data-testid="news-delete">
            {t('actions.delete')}
          </Button>
        </Permission>
      </Space>
      {article.scheduled && article.publishAt && (
        <Alert type="info" showIcon className="news-edit__hint" title={t('detail.scheduledAt', { time: formatDateTimeLabel(article.publishAt) })} />
      )}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 3 }}
        className="news-detail-admin__facts"
        items={[
          { key: 'category', label: t('fields.category'), children: t(`category.${article.category}`) },
          { key: 'publishAt', label: beijingTitle(t('fields.publishAt')), children: formatDateTime(article.publishAt) ?? '--' },
          { key: 'author', label: t('fields.author'), children: article.authorName ?? '--' },
          { key: 'createdAt', label: beijingTitle(t('fields.createdAt')), children: formatDateTime(article.createdAt) },
          { key: 'updatedAt', label: beijingTitle(t('fields.updatedAt')), children: formatDateTime(article.updatedAt) },
          {
            key: 'cover',
            label: t('fields.cover'),
            children: article.coverPath ? <img className="news-edit__cover" src={`${article.coverPath}?preview=1`} alt={t('fields.cover')} /> : '--',
          },
        ]}
      />
      <Tabs
        items={[
          { key: 'zh', label: t('edit.zh'), children: <ArticleView article={article} shown={article} /> },
          {
            key: 'en',
            label: t('edit.en'),
            children: (
              <>
                {!hasEnglish && <Alert type="info" showIcon className="news-edit__hint" title={t('detail.noEnglish')} />}
                <ArticleView article={article} shown={english} />
              </>
            ),
          },
        ]}
      />
    </section>
  );
}
