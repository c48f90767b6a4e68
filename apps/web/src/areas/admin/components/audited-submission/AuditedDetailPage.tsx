import { useState, type ReactNode } from 'react';
import { Button } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { AuditDialog } from '../../../../components/admin-kit';
import { Permission } from '../../../../lib/permission';
import { RecordDetailShell } from '../RecordDetailShell';
import { useSubmissionAudit } from './use-submission-audit';
import { useWorkflowRemind } from './use-workflow-remind';
import type { AuditedWorkflow } from './workflow';

interface AuditedRecord {
  id?: string | null;
  version: number;
  status: string;
}

export interface WorkflowDetailProps<R, D> {
  workflow: AuditedWorkflow<R, D>;
  /** The area's view of the record, with the page's button (审核, 提醒) in its head. */
  view(record: D, extra: ReactNode): ReactNode;
}

/** A submitted record's page (资格详情, 初赛详情): every field, files, history; 审核 while it may be audited. */
export function AuditedDetailPage<R, D extends AuditedRecord>({ workflow, view }: WorkflowDetailProps<R, D>) {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [auditing, setAuditing] = useState(false);
  const { words, audit } = workflow;
  const record = useQuery({ queryKey: workflow.keys.detail(id), queryFn: () => workflow.api.one(id), enabled: id !== '' });
  const where = audit.where;
  const refresh = () => {
    void record.refetch();
    void queryClient.invalidateQueries({ queryKey: workflow.keys.list });
  };

  return (
    <RecordDetailShell query={record} className={workflow.classes.detail} testId={workflow.testIds.detail} loadFailed={t(words.loadFailed)} reload={t(words.reload)}>
      {(data) => (
        <>
          {view(
            data,
            workflow.auditable(data) && (
              <Permission codes={workflow.codes.audit}>
                <Button
                  type="primary"
                  icon={<AuditOutlined />}
                  onClick={() => ('dialog' in where ? setAuditing(true) : void navigate(where.page(id)))}
                  data-testid="detail-audit"
                >
                  {t(audit.label)}
                </Button>
              </Permission>
            ),
          )}
          {'dialog' in where && (
            <DetailAuditDialog workflow={workflow} open={auditing} refresh={refresh} onClose={() => setAuditing(false)} id={data.id ?? id} version={data.version} />
          )}
        </>
      )}
    </RecordDetailShell>
  );
}

interface DetailAuditDialogProps<R, D> {
  workflow: AuditedWorkflow<R, D>;
  open: boolean;
  refresh(): void;
  onClose(): void;
  id: string;
  version: number;
}

function DetailAuditDialog<R, D>({ workflow, open, refresh, onClose, id, version }: DetailAuditDialogProps<R, D>) {
  const { t } = useTranslation('admin');
  const decide = useSubmissionAudit(workflow.api.audit, t(workflow.audit.done), refresh);
  return <AuditDialog open={open} onClose={onClose} onSubmit={(decision) => decide(id, version, decision)} />;
}

/** A draft's page (报名草稿详情, 初赛草稿详情): the draft as saved, read-only, with a reminder. */
export function DraftDetailPage<R, D extends { id?: string | null }>({ workflow, view }: WorkflowDetailProps<R, D>) {
  const { t } = useTranslation('admin');
  const { id = '' } = useParams();
  const { words } = workflow;
  const draft = useQuery({ queryKey: workflow.keys.draft(id), queryFn: () => workflow.api.draft(id), enabled: id !== '' });
  const reminders = useWorkflowRemind(workflow, () => void draft.refetch());
  return (
    <RecordDetailShell query={draft} className={workflow.classes.detail} testId={workflow.testIds.draft} loadFailed={t(words.loadFailed)} reload={t(words.reload)}>
      {(data) => view(data, reminders.detailButton(data.id ?? id))}
    </RecordDetailShell>
  );
}
