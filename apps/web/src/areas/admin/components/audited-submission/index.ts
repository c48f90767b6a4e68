/**
 * One shape for the audited submissions of the console (docs/rules/screens.md, "Consoles"): the
 * sign-ups (报名管理) and the preliminary materials (初赛管理) each have a drafts list with
 * reminders, a list with single, batch and queue audits, a detail page and a draft's page.
 * An area declares its AuditedWorkflow (calls, keys, paths, words); its pages add columns and views.
 */
export { AuditedListPage, type AuditedListPageProps } from './AuditedListPage';
export { AuditedDraftsPage, type AuditedDraftsPageProps } from './AuditedDraftsPage';
export { AuditedDetailPage, DraftDetailPage, type WorkflowDetailProps } from './AuditedDetailPage';
export { AuditQueueShell, BackToList, SkipButton, useAuditQueue, type AuditQueueOptions } from './audit-queue';
export { useSubmissionAudit, type SendAudit } from './use-submission-audit';
export type { AdminKey, AuditedWorkflow } from './workflow';
