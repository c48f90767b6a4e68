/**
 * The sign-ups as an audited workflow (../components/audited-submission): the calls, keys, paths,
 * permissions and words the 报名管理 pages share.
 */
import type { TeamAdminDetail, TeamAdminRow } from '@contest/shared';
import type { AuditedWorkflow } from '../components/audited-submission';
import { QUALIFICATION_PATHS as PATHS } from './paths';
import { TEAM_EXPORT_URL, TEAM_QUERY_KEYS as KEYS, auditTeam, batchAuditTeams, fetchDraft, fetchDrafts, fetchQueueNext, fetchTeam, fetchTeams, remindDrafts } from './team-api';

export const TEAM_AUDIT: AuditedWorkflow<TeamAdminRow, TeamAdminDetail> = {
  nameField: 'teamName',
  words: { name: 'pages.qualification.fields.teamName', untitled: 'pages.qualification.untitled', loadFailed: 'pages.qualification.loadFailed', reload: 'pages.qualification.reload' },
  classes: { link: 'qualification-link', detail: 'qualification-detail' },
  testIds: { list: 'qualification-page', drafts: 'qualification-draft-page', detail: 'qualification-detail', draft: 'qualification-draft-detail' },
  titles: { list: 'titles.qualification', drafts: 'titles.qualificationDraft' },
  codes: { audit: ['qualification:audit'], export: ['qualification:export'], remind: ['qualification-draft:remind'] },
  paths: { list: PATHS.list, queue: PATHS.audit, detail: PATHS.detail, draft: PATHS.draft },
  keys: { list: KEYS.list, refresh: KEYS.list, drafts: KEYS.drafts, detail: KEYS.detail, draft: KEYS.draft },
  api: { list: fetchTeams, drafts: fetchDrafts, one: fetchTeam, draft: fetchDraft, next: fetchQueueNext, audit: auditTeam, batch: batchAuditTeams, remind: remindDrafts, exportUrl: TEAM_EXPORT_URL },
  auditable: (row) => row.status === 'SUBMITTED',
  audit: {
    label: 'pages.qualification.audit',
    done: 'pages.qualification.audited',
    start: 'pages.qualification.startAudit',
    exportName: 'pages.qualification.exportName',
    outcome: (outcome) => `pages.qualification.batch.${outcome}`,
    // 资格管理 decides in a dialog over the list or the detail; the queue has its own page.
    where: { dialog: { title: 'pages.qualification.auditOf', nameOf: (row) => row.teamName || row.orgName } },
  },
  queue: {
    testId: 'qualification-audit-page',
    back: 'pages.qualificationAudit.backToList',
    done: 'pages.qualificationAudit.empty',
    doneSkipped: 'pages.qualificationAudit.skippedCount',
    reviewSkipped: 'pages.qualificationAudit.reviewSkipped',
    reviewSkippedTestId: 'queue-review-skipped',
  },
  remind: {
    remind: 'pages.qualificationDraft.remind',
    remindAll: 'pages.qualificationDraft.remindAll',
    remindSelected: 'pages.qualificationDraft.remindSelected',
    confirmAll: 'pages.qualificationDraft.confirmAll',
  },
};
