import { useState } from 'react';
import { Button } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { AuditDialog, ExportButton, type SearchColumns, type SearchField } from '../../../../components/admin-kit';
import { Permission, usePermission } from '../../../../lib/permission';
import { useBatchAudit } from '../use-batch-audit';
import { useWorkflowColumns } from './columns';
import { useSubmissionAudit } from './use-submission-audit';
import type { AdminKey, AuditedWorkflow } from './workflow';
import { WorkflowList } from './WorkflowList';

interface AuditedRow {
  id: string;
  version: number;
  status: string;
}

export interface AuditedListPageProps<R extends AuditedRow, D> {
  workflow: AuditedWorkflow<R, D>;
  searchFields: SearchField[];
  /** The columns between the name and the actions. */
  columns: SearchColumns<R>;
}

/**
 * The submitted records of an audited workflow (资格管理, 初赛项目管理): search, open, audit one
 * (a dialog or the audit page), a batch of the selected SUBMITTED rows, or the queue; export.
 */
export function AuditedListPage<R extends AuditedRow, D>({ workflow, searchFields, columns }: AuditedListPageProps<R, D>) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { codes, audit, auditable } = workflow;
  const mayAudit = usePermission()({ codes: codes.audit });
  const refresh = () => void queryClient.invalidateQueries({ queryKey: workflow.keys.refresh });
  const [single, setSingle] = useState<R | null>(null);
  const batch = useBatchAudit<R>({
    send: workflow.api.batch,
    refresh,
    outcomeLabel: (outcome) => t(audit.outcome(outcome)),
    nameLabel: t(workflow.words.name),
    nameOf: audit.nameOf,
  });
  const where = audit.where;

  const allColumns = useWorkflowColumns(workflow, t, columns, workflow.paths.detail, (row) =>
    auditable(row) && (
      <Permission codes={codes.audit}>
        <Button type="link" size="small" onClick={() => ('dialog' in where ? setSingle(row) : void navigate(where.page(row.id)))} data-testid="row-audit">
          {t(audit.label)}
        </Button>
      </Permission>
    ),
  );

  return (
    <WorkflowList<R>
      testId={workflow.testIds.list}
      title={t(workflow.titles.list)}
      queryKey={workflow.keys.list}
      fetchPage={workflow.api.list}
      columns={allColumns}
      searchFields={searchFields}
      rowSelectable={auditable}
      toolbar={(filters) => (
        <>
          <Permission codes={codes.audit}>
            <Button type="primary" icon={<AuditOutlined />} onClick={() => void navigate(workflow.paths.queue)} data-testid={audit.startTestId}>
              {t(audit.start)}
            </Button>
          </Permission>
          <Permission codes={codes.export}>
            <ExportButton url={workflow.api.exportUrl} params={filters} fallbackName={t(audit.exportName)} />
          </Permission>
        </>
      )}
      // Without the button there is nothing to do with a selection: no checkboxes either.
      batchActions={mayAudit ? batch.actions : undefined}
    >
      {'dialog' in where && <RowAuditDialog workflow={workflow} row={single} title={where.dialog} refresh={refresh} onClose={() => setSingle(null)} />}
      {batch.dialogs}
    </WorkflowList>
  );
}

interface RowAuditDialogProps<R extends AuditedRow, D> {
  workflow: AuditedWorkflow<R, D>;
  row: R | null;
  title: { title: AdminKey; nameOf(row: R): string };
  refresh(): void;
  onClose(): void;
}

/** The decision dialog of one row (the list stays under it). */
function RowAuditDialog<R extends AuditedRow, D>({ workflow, row, title, refresh, onClose }: RowAuditDialogProps<R, D>) {
  const { t } = useTranslation('admin');
  const auditOne = useSubmissionAudit(workflow.api.audit, t(workflow.audit.done), refresh);
  return (
    <AuditDialog
      open={row !== null}
      title={row ? t(title.title, { name: title.nameOf(row) }) : undefined}
      onClose={onClose}
      onSubmit={(decision) => (row ? auditOne(row.id, row.version, decision) : undefined)}
    />
  );
}
