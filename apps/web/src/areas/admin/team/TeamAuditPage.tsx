import { Card, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { AuditPanel } from '../../../components/admin-kit';
import { AuditQueueShell, SkipButton, useAuditQueue, useSubmissionAudit } from '../components/audited-submission';
import { TeamDetailView } from './TeamDetailView';
import { TEAM_QUERY_KEYS } from './team-api';
import { TEAM_AUDIT } from './team-audit';
import './team.css';

/**
 * 报名审核 (/admin/competition/qualification-audit): the oldest submitted sign-up with the
 * decision panel beside it. A decision loads the next at once; 跳过 leaves one for later in this
 * session (sent as `exclude`), so an operator works through the queue without the list.
 */
export function TeamAuditPage() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const queue = useAuditQueue({ queryKey: (skipped) => [...TEAM_QUERY_KEYS.queue, skipped], fetchNext: TEAM_AUDIT.api.next });
  const advance = () => {
    queue.advance();
    void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEYS.list });
  };
  const audit = useSubmissionAudit(TEAM_AUDIT.api.audit, t(TEAM_AUDIT.audit.done), advance);
  const skipped = queue.skipped.length;

  return (
    <AuditQueueShell workflow={TEAM_AUDIT} query={queue.next} recordOf={(data) => data.detail} queue={queue}>
      {(detail, { remaining }, backToList) => {
        const busy = queue.next.isFetching;
        return (
          <section className="admin-page qualification-audit" data-testid="qualification-audit-page">
            <div className="qualification-audit__bar">
              {backToList}
              <Typography.Text className="qualification-audit__remaining" data-testid="queue-remaining">
                {t('pages.qualificationAudit.remaining', { count: remaining })}
                {skipped > 0 && ` · ${t('pages.qualificationAudit.skippedCount', { count: skipped })}`}
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
                  onSubmit={(decision) => audit(detail.id, detail.version, decision)}
                  extra={<SkipButton disabled={busy} onClick={() => queue.skip(detail.id)} label={t('pages.qualificationAudit.skip')} />}
                />
              </Card>
            </div>
          </section>
        );
      }}
    </AuditQueueShell>
  );
}
