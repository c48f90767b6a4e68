import { useTranslation } from 'react-i18next';
import type { SearchColumns, SearchField } from '../../../../components/admin-kit';
import { usePermission } from '../../../../lib/permission';
import { useWorkflowColumns } from './columns';
import { useWorkflowRemind } from './use-workflow-remind';
import type { AuditedWorkflow } from './workflow';
import { WorkflowList } from './WorkflowList';

export interface AuditedDraftsPageProps<R extends { id: string }, D> {
  workflow: AuditedWorkflow<R, D>;
  searchFields: SearchField[];
  /** The columns between the name and the actions. */
  columns: SearchColumns<R>;
}

/** The drafts of an audited workflow (报名草稿, 初赛草稿): read-only, with reminders (one, the selected, all). */
export function AuditedDraftsPage<R extends { id: string }, D>({ workflow, searchFields, columns }: AuditedDraftsPageProps<R, D>) {
  const { t } = useTranslation('admin');
  const reminders = useWorkflowRemind(workflow);
  const mayRemind = usePermission()({ codes: workflow.codes.remind });
  const allColumns = useWorkflowColumns(workflow, t, columns, workflow.paths.draft, (row) => reminders.rowButton(row.id));

  return (
    <WorkflowList<R>
      testId={workflow.testIds.drafts}
      title={t(workflow.titles.drafts)}
      queryKey={workflow.keys.drafts}
      fetchPage={workflow.api.drafts}
      columns={allColumns}
      searchFields={searchFields}
      toolbar={reminders.allButton}
      // Without the button there is nothing to do with a selection: no checkboxes either.
      batchActions={mayRemind ? reminders.selectedButton : undefined}
    />
  );
}
