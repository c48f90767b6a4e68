import { Empty, Skeleton, Tag } from 'antd';
import { CalendarOutlined, PictureOutlined } from '@ant-design/icons';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, SKELETON_ROWS, type NewsCategory, type NewsListItem } from '@contest/shared';
import { Pager } from '../../../components/admin-kit/Pager';
import { useMinimumDuration } from '../../../components/admin-kit/DataTable';
import { useNewsPage } from '../site-api';
import { detailPath } from '../routes';

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 0 ? page : 1;
}

export function NewsCover({ item }: { item: Pick<NewsListItem, 'coverPath' | 'title'> }) {
  if (!item.coverPath) {
    return (
      <span className="news-cover news-cover--empty" aria-hidden="true">
        <PictureOutlined />
      </span>
    );
  }
  return <img className="news-cover" src={item.coverPath} alt="" loading="lazy" />;
}

function NewsRow({ item }: { item: NewsListItem }) {
  const { t } = useTranslation('site');
  return (
    <li className="news-row" data-testid="news-row">
      <Link to={detailPath(item.id)} className="news-row__link">
        <NewsCover item={item} />
        <div className="news-row__text">
          <h2 className="news-row__title">
            {item.pinned && (
              <Tag color="red" className="news-row__pin">
                {t('news.pinned')}
              </Tag>
            )}
            {item.title}
          </h2>
          {item.summary && <p className="news-row__summary">{item.summary}</p>}
          <p className="news-row__meta">
            <CalendarOutlined /> <time dateTime={item.publishAt ?? undefined}>{item.date}</time>
            {item.source && <span className="news-row__source">{item.source}</span>}
          </p>
        </div>
      </Link>
    </li>
  );
}

function NewsSkeleton() {
  return (
    <ul className="news-list" data-testid="news-skeleton" aria-busy="true">
      {Array.from({ length: SKELETON_ROWS }, (_, i) => (
        <li key={i} className="news-row news-row--skeleton">
          <Skeleton.Image active className="news-cover" />
          <Skeleton active title paragraph={{ rows: 2 }} />
        </li>
      ))}
    </ul>
  );
}

export interface NewsListProps {
  category: NewsCategory;
  title: string;
}

/**
 * A news list page (/medical-insurance, /contest-dynamic): pinned first then newest, as the
 * server orders them. The page number lives in the address so "back" from an article returns
 * to the same page.
 */
export function NewsList({ category, title }: NewsListProps) {
  const { t } = useTranslation('site');
  const [params, setParams] = useSearchParams();
  const page = pageOf(params.get('page'));
  const { data, isPending, isError } = useNewsPage(category, page);
  const skeleton = useMinimumDuration(isPending);

  const changePage = (next: number) => {
    setParams((prev) => {
      const out = new URLSearchParams(prev);
      if (next > 1) out.set('page', String(next));
      else out.delete('page');
      return out;
    });
    window.scrollTo?.({ top: 0 });
  };

  return (
    <section className="site-page news-page" data-testid={`news-list-${category}`}>
      <h1 className="site-page__title">{title}</h1>
      {skeleton || (isPending && !data) ? (
        <NewsSkeleton />
      ) : !data || !Array.isArray(data.list) || data.list.length === 0 ? (
        <Empty className="site-empty" description={isError ? t('news.loadFailed') : t('news.empty')} />
      ) : (
        <>
          <ul className="news-list">
            {data.list.map((item) => (
              <NewsRow key={item.id} item={item} />
            ))}
          </ul>
          <div className="site-pager">
            <Pager page={page} size={data.size || PAGE_SIZE_DEFAULT} total={data.total} onChange={changePage} />
          </div>
        </>
      )}
    </section>
  );
}
