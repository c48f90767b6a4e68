/**
 * The preliminary materials as an audited workflow (../components/audited-submission): the calls,
 * keys, paths, permissions and words the 初赛管理 pages share.
 */
import type { PrelimAdminDetail, PrelimAdminRow } from '@contest/shared';
import type { AuditedWorkflow } from '../components/audited-submission';
import { auditable } from './fields';
import { PRELIM_PATHS as PATHS } from './paths';
import {
  PRELIM_EXPORT_URL,
  PRELIM_QUERY_KEYS as KEYS,
  auditPrelim,
  auditPrelimBatch,
  fetchPrelim,
  fetchPrelimDraft,
  fetchPrelimDrafts,
  fetchPrelimQueueNext,
  fetchPrelims,
  remindPrelimDrafts,
} from './prelim-api';

export const PRELIM_AUDIT: AuditedWorkflow<PrelimAdminRow, PrelimAdminDetail> = {
  nameField: 'projectName',
  words: { name: 'pages.prelim.fields.projectName', untitled: 'pages.prelim.untitled', loadFailed: 'pages.prelim.loadFailed', reload: 'pages.prelim.reload' },
  classes: { link: 'prelim-link', detail: 'prelim-detail' },
  testIds: { list: 'prelim-list-page', drafts: 'prelim-drafts-page', detail: 'prelim-detail', draft: 'prelim-draft-detail' },
  titles: { list: 'titles.preliminarySearch', drafts: 'titles.preliminaryBox' },
  codes: { audit: ['preliminary:audit'], export: ['preliminary:export'], remind: ['preliminary-draft:remind'] },
  paths: { list: PATHS.list, queue: PATHS.queue, detail: PATHS.detail, draft: PATHS.draft },
  // A batch decision also changes what 决赛项目管理 offers: everything of the area is read again.
  keys: { list: KEYS.list, refresh: KEYS.all, drafts: KEYS.drafts, detail: KEYS.detail, draft: KEYS.draft },
  api: {
    list: fetchPrelims,
    drafts: fetchPrelimDrafts,
    one: fetchPrelim,
    draft: fetchPrelimDraft,
    next: fetchPrelimQueueNext,
    audit: auditPrelim,
    batch: auditPrelimBatch,
    remind: remindPrelimDrafts,
    exportUrl: PRELIM_EXPORT_URL,
  },
  auditable,
  audit: {
    label: 'pages.prelim.list.audit',
    done: 'pages.prelim.audit.audited',
    start: 'pages.prelim.list.startAudit',
    startTestId: 'start-audit',
    exportName: 'pages.prelim.list.exportName',
    outcome: (outcome) => `pages.prelim.list.batch.${outcome}`,
    nameOf: (row) => row.projectName,
    // The formal check reads the application PDF: a page of its own (形式审查), one record or the queue.
    where: { page: PATHS.audit },
  },
  queue: {
    testId: 'prelim-audit-page',
    back: 'pages.prelim.audit.backToList',
    done: 'pages.prelim.audit.queueDone',
    doneSkipped: 'pages.prelim.audit.queueDoneSkipped',
    reviewSkipped: 'pages.prelim.audit.restart',
    reviewSkippedTestId: 'queue-restart',
  },
  remind: {
    remind: 'pages.prelim.drafts.remind',
    remindAll: 'pages.prelim.drafts.remindAll',
    remindSelected: 'pages.prelim.drafts.remindSelected',
    confirmAll: 'pages.prelim.drafts.remindAllConfirm',
  },
};
