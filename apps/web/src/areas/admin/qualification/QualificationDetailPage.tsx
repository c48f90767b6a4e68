import { useState } from 'react';
import { Button, Result, Skeleton } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AuditDialog } from '../../../components/admin-kit';
import { Permission } from '../../../lib/permission';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_QUERY_KEYS, fetchTeam } from './team-api';
import { useTeamAudit } from './use-team-audit';
import './qualification.css';

/** 资格详情 (/admin/competition/qualification-detail/:id): every field, files, history; 审核 while SUBMITTED. */
export function QualificationDetailPage() {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const [auditing, setAuditing] = useState(false);
  const team = useQuery({ queryKey: TEAM_QUERY_KEYS.detail(id), queryFn: () => fetchTeam(id), enabled: id !== '' });
  const refresh = () => {
    void team.refetch();
    void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEYS.list });
  };
  const audit = useTeamAudit(refresh);

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
    <section className="admin-page qualification-detail" data-testid="qualification-detail">
      <TeamDetailView
        team={data}
        extra={
          data.status === 'SUBMITTED' && (
            <Permission codes={['qualification:audit']}>
              <Button type="primary" icon={<AuditOutlined />} onClick={() => setAuditing(true)} data-testid="detail-audit">
                {t('pages.qualification.audit')}
              </Button>
            </Permission>
          )
        }
      />
      <AuditDialog
        open={auditing}
        onClose={() => setAuditing(false)}
        onSubmit={(decision) => audit(data.id, data.version, decision)}
      />
    </section>
  );
}
