import { useState } from 'react';
import { Button } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { AuditDialog } from '../../../components/admin-kit';
import { Permission } from '../../../lib/permission';
import { RecordDetailShell } from '../components/RecordDetailShell';
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

  return (
    <RecordDetailShell
      query={team}
      className="qualification-detail"
      testId="qualification-detail"
      loadFailed={t('pages.qualification.loadFailed')}
      reload={t('pages.qualification.reload')}
    >
      {(data) => (
        <>
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
        </>
      )}
    </RecordDetailShell>
  );
}
