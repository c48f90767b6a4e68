import { Button, Result, Skeleton } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { Permission } from '../../../lib/permission';
import { useRemindDrafts } from './use-remind-drafts';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_QUERY_KEYS, fetchDraft } from './team-api';
import './qualification.css';

/** 报名草稿详情 (/admin/competition/qualification-draft/:id): the draft as saved, read-only. */
export function QualificationDraftDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const team = useQuery({ queryKey: TEAM_QUERY_KEYS.draft(id), queryFn: () => fetchDraft(id), enabled: id !== '' });
  const { remind, busy } = useRemindDrafts(() => void team.refetch());

  if (team.isError) {
    return (
      <Result
        status="warning"
        title={t('pages.qualification.loadFailed')}
        extra={<Button onClick={() => void team.refetch()}>{t('pages.qualification.reload')}</Button>}
      />
    );
  }
  if (!team.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  const data = team.data;
  return (
    <section className="admin-page qualification-detail" data-testid="qualification-draft-detail">
      <TeamDetailView
        team={data}
        extra={
          <Permission codes={['qualification-draft:remind']}>
            <Button icon={<BellOutlined />} loading={busy !== null} onClick={() => void remind({ ids: [data.id] }, data.id)}>
              {t('pages.qualificationDraft.remind')}
            </Button>
          </Permission>
        }
        alert={
          data.lastRemindedOn ? (
            <div className="qualification-detail__note">{t('pages.qualificationDraft.lastRemindedLine', { day: data.lastRemindedOn })}</div>
          ) : null
        }
      />
    </section>
  );
}
