import type { ReactNode } from 'react';
import { Button, Result, Skeleton, Tag } from 'antd';
import { ArrowLeftOutlined, CalendarOutlined } from '@ant-design/icons';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { NewsDetail } from '@contest/shared';
import { SITE_PATHS, detailPath } from '../routes';
import { RichHtml } from '../../../components/rich-text/RichHtml';
import { HiddenPageHeading } from '../../../components/a11y/PageHeading';

export interface NewsArticleProps {
  news: NewsDetail | undefined;
  loading: boolean;
  /** Shown instead of the article when it cannot be loaded. */
  failure?: ReactNode;
  /** Above the title (the preview banner). */
  notice?: ReactNode;
  /** Links to the neighbours in the list (not in a preview, whose neighbours are published ones). */
  neighbours?: boolean;
}

/** One article: back button, title, date and source, body, neighbours. */
export function NewsArticle({ news, loading, failure, notice, neighbours = true }: NewsArticleProps) {
  const { t } = useTranslation('site');
  const navigate = useNavigate();
  const listPath = news?.category === 'CONTEST_DYNAMIC' ? SITE_PATHS.contestDynamic : SITE_PATHS.medicalInsurance;
  const goBack = () => {
    // Opened straight from a link or a new tab there is nothing to go back to: go to its list.
    if (window.history.length > 1 && window.history.state?.idx > 0) void navigate(-1);
    else void navigate(listPath);
  };

  let content: ReactNode;
  if (loading) {
    // Until the article's own title shows, the route's names the page (one h1 on every page).
    content = (
      <>
        <HiddenPageHeading />
        <Skeleton active title paragraph={{ rows: 8 }} data-testid="article-skeleton" />
      </>
    );
  } else if (!news) {
    content = (
      <>
        <HiddenPageHeading />
        {failure ?? <Result status="404" title={t('news.notFound')} />}
      </>
    );
  } else {
    content = (
      <article className="news-article" data-testid="news-article">
        {notice}
        <h1 className="news-article__title">{news.title}</h1>
        <p className="news-article__meta">
          {news.pinned && <Tag color="red">{t('news.pinned')}</Tag>}
          <span>
            <CalendarOutlined /> <time dateTime={news.publishAt ?? undefined}>{news.date || t('news.unpublished')}</time>
          </span>
          {news.source && <span>{t('news.source', { source: news.source })}</span>}
        </p>
        <RichHtml html={news.body} className="news-article__body" testId="article-body" />
        {neighbours && (news.previous || news.next) && (
          <nav className="news-article__neighbours" aria-label={t('news.neighbours')}>
            {news.previous && (
              <p>
                {t('news.previous')}
                <Link to={detailPath(news.previous.id)}>{news.previous.title}</Link>
              </p>
            )}
            {news.next && (
              <p>
                {t('news.next')}
                <Link to={detailPath(news.next.id)}>{news.next.title}</Link>
              </p>
            )}
          </nav>
        )}
      </article>
    );
  }

  return (
    <section className="site-page news-detail">
      <Button className="news-detail__back" icon={<ArrowLeftOutlined />} onClick={goBack} data-testid="article-back">
        {t('news.back')}
      </Button>
      {content}
    </section>
  );
}
