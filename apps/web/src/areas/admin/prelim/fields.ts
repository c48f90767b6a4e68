import { TEAM_DICT_TYPES, type TeamStatus } from '@contest/shared';
import type { SearchField } from '../../../components/admin-kit';

/** Statuses the materials list offers as a filter (drafts have their own page). */
export const LISTED_STATUSES: readonly TeamStatus[] = ['SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED'];

/** Only submitted materials get the formal check. */
export const auditable = (row: { status: string }) => row.status === 'SUBMITTED';

export const TRACK_DICT = TEAM_DICT_TYPES.track;

/** The filters of 初赛项目管理 and 决赛项目管理 (their exports take the same). */
export const PRELIM_FIELDS: SearchField[] = [
  { name: 'projectName', label: 'pages.prelim.fields.projectName', kind: 'text' },
  { name: 'teamName', label: 'pages.prelim.fields.teamName', kind: 'text' },
  { name: 'orgName', label: 'pages.prelim.fields.orgName', kind: 'text' },
  { name: 'track', label: 'pages.prelim.fields.track', kind: 'dict', dictType: TRACK_DICT },
  {
    name: 'status',
    label: 'pages.prelim.fields.status',
    kind: 'select',
    options: LISTED_STATUSES.map((status) => ({ value: status, label: `files:contest.prelimStatus.${status}` })),
  },
  {
    name: 'submitted',
    label: 'pages.prelim.fields.submittedAt',
    kind: 'dateTimeRange',
    fromName: 'submittedFrom',
    toName: 'submittedTo',
  },
];

/** The filters of 初赛草稿: every row is a draft, never submitted. */
export const PRELIM_DRAFT_FIELDS: SearchField[] = PRELIM_FIELDS.filter((f) => f.name !== 'status' && f.name !== 'submitted');
/** 决赛项目管理: every project there passed the formal check, so a status filter has nothing to choose. */
export const FINAL_FIELDS: SearchField[] = PRELIM_FIELDS.filter((f) => f.name !== 'status');
