import { useSearchParams } from 'react-router';
import { NewsArticle } from '../components/NewsArticle';
import { useNews } from '../site-api';
import '../site-pages.css';

/** /dynamic-detail?id=: a published article, open to everyone. */
export function DynamicDetailPage() {
  const [params] = useSearchParams();
  const id = params.get('id');
  const { data, isLoading } = useNews(id);
  return <NewsArticle news={data} loading={isLoading} />;
}
