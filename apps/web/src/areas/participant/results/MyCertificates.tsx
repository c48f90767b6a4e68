import { Card, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { MyCertificateList } from '../../../components/certificates';
import { MY_RESULTS_QUERY_KEY, fetchMyResults } from './results-api';
import { MY_CERTIFICATES_QUERY_KEY, fetchMyCertificates } from './certificates-api';

/**
 * 我的证书 (docs/certificates.md, "Web pages"), under the team's result cards: the team's award
 * certificate, promotion notice and participation certificate, each with its PDF and verification
 * page. The card appears once a round's result is published (before that there is nothing to
 * issue) or as soon as the team holds a document; until the organisers issue, it says so.
 */
export function MyCertificates() {
  const { t } = useTranslation('certificates');
  const results = useQuery({ queryKey: MY_RESULTS_QUERY_KEY, queryFn: fetchMyResults, retry: false });
  const mine = useQuery({ queryKey: MY_CERTIFICATES_QUERY_KEY, queryFn: fetchMyCertificates, retry: false });
  const published = (results.data?.rounds ?? []).some((r) => r.published);
  const held = (mine.data?.length ?? 0) > 0;
  if (!published && !held) return null;
  return (
    <Card size="small" className="contest-card" title={<h2 className="my-certificates__heading">{t('mine.title')}</h2>} data-testid="my-certificates-card">
      <Typography.Paragraph type="secondary">{t('mine.intro')}</Typography.Paragraph>
      <MyCertificateList
        certificates={mine.data}
        loading={mine.isPending}
        failed={mine.isError}
        onRetry={() => void mine.refetch()}
        emptyText={t('mine.empty')}
      />
    </Card>
  );
}
