import { Button, Result, Skeleton } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Permission } from '../../../lib/permission';
import { PrelimDetailView } from './PrelimDetailView';
import { PRELIM_QUERY_KEYS, fetchPrelimDraft } from './prelim-api';
import { useRemindPrelim } from './use-remind-prelim';
import './preliminary.css';

/** 初赛草稿详情 (/admin/preliminary/draft-detail/:id): the draft as saved, read-only, with a reminder. */
export function PrelimDraftDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const doc = useQuery({ queryKey: PRELIM_QUERY_KEYS.draft(id), queryFn: () => fetchPrelimDraft(id), enabled: id !== '' });
  const { remind, busy } = useRemindPrelim(() => void doc.refetch());

  if (doc.isError) {
    return (
      <Result
        status="warning"
        title={t('pages.prelim.loadFailed')}
        extra={<Button onClick={() => void doc.refetch()}>{t('pages.prelim.reload')}</Button>}
      />
    );
  }
  if (!doc.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  const data = doc.data;
  return (
    <section className="admin-page prelim-detail" data-testid="prelim-draft-detail">
      <PrelimDetailView
        doc={data}
        extra={
          <Permission codes={['preliminary-draft:remind']}>
            <Button icon={<BellOutlined />} loading={busy !== null} onClick={() => void remind({ ids: [data.id ?? id] }, id)}>
              {t('pages.prelim.drafts.remind')}
            </Button>
          </Permission>
        }
      />
    </section>
  );
}
