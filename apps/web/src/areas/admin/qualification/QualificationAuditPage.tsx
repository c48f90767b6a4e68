import { useState } from 'react';
import { Button, Card, Result, Skeleton, Space, Typography } from 'antd';
import { ArrowLeftOutlined, StepForwardOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuditPanel, type AuditDecision } from '../../../components/admin-kit';
import { QUALIFICATION_PATHS } from './paths';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_QUERY_KEYS, fetchQueueNext } from './team-api';
import { useTeamAudit } from './use-team-audit';
import './qualification.css';

/**
 * 报名审核 (/admin/competition/qualification-audit): the oldest submitted sign-up with the
 * decision panel beside it. A decision loads the next at once; 跳过 leaves one for later in this
 * session (sent as `exclude`), so an operator works through the queue without the list.
 */
export function QualificationAuditPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [skipped, setSkipped] = useState<string[]>([]);
  // Raised after each decision: the same exclusions, but a fresh answer.
  const [round, setRound] = useState(0);
  const next = useQuery({
    queryKey: [...TEAM_QUERY_KEYS.queue, skipped, round],
    queryFn: () => fetchQueueNext(skipped),
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
  });
  const advance = () => {
    setRound((r) => r + 1);
    void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEYS.list });
  };
  const audit = useTeamAudit(advance);

  if (next.isError && !next.data) {
    return (
      <Result
        status="warning"
        title={t('pages.qualification.loadFailed')}
        extra={<Button onClick={() => void next.refetch()}>{t('pages.qualification.reload')}</Button>}
      />
    );
  }
  if (!next.data) return <Skeleton active paragraph={{ rows: 10 }} />;

  const { detail, remaining } = next.data;
  const backToList = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(QUALIFICATION_PATHS.list)}>
      {t('pages.qualificationAudit.backToList')}
    </Button>
  );

  if (!detail) {
    return (
      <section className="admin-page" data-testid="qualification-audit-page">
        <Result
          status="success"
          title={t('pages.qualificationAudit.empty')}
          subTitle={skipped.length > 0 ? t('pages.qualificationAudit.skippedCount', { count: skipped.length }) : undefined}
          extra={
            <Space wrap>
              {backToList}
              {skipped.length > 0 && (
                <Button type="primary" onClick={() => setSkipped([])} data-testid="queue-review-skipped">
                  {t('pages.qualificationAudit.reviewSkipped')}
                </Button>
              )}
            </Space>
          }
          data-testid="queue-empty"
        />
      </section>
    );
  }

  const decide = (decision: AuditDecision) => audit(detail.id, detail.version, decision);
  const busy = next.isFetching;

  return (
    <section className="admin-page qualification-audit" data-testid="qualification-audit-page">
      <div className="qualification-audit__bar">
        {backToList}
        <Typography.Text className="qualification-audit__remaining" data-testid="queue-remaining">
          {t('pages.qualificationAudit.remaining', { count: remaining })}
          {skipped.length > 0 && ` · ${t('pages.qualificationAudit.skippedCount', { count: skipped.length })}`}
        </Typography.Text>
      </div>
      <div className="qualification-audit__body">
        <div className="qualification-audit__detail" aria-busy={busy}>
          <TeamDetailView team={detail} />
        </div>
        <Card size="small" className="qualification-audit__panel" title={t('pages.qualificationAudit.decision')}>
          <AuditPanel
            resetKey={detail.id}
            disabled={busy}
            onSubmit={decide}
            extra={
              <Button
                icon={<StepForwardOutlined />}
                disabled={busy}
                onClick={() => setSkipped((list) => (list.includes(detail.id) ? list : [...list, detail.id]))}
                data-testid="queue-skip"
              >
                {t('pages.qualificationAudit.skip')}
              </Button>
            }
          />
        </Card>
      </div>
    </section>
  );
}
