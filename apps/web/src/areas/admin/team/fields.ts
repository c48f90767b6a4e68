import type { TFunction } from 'i18next';
import { TEAM_DICT_TYPES, TEAM_STATUSES, type TeamAdminRow } from '@contest/shared';
import type { SearchColumns, SearchField } from '../../../components/admin-kit';

const ORG_NAME: SearchField = { name: 'orgName', label: 'pages.qualification.fields.orgName', kind: 'text' };
const TEAM_NAME: SearchField = { name: 'teamName', label: 'pages.qualification.fields.teamName', kind: 'text' };
/** The team's dictionary fields: organisation type, track, region. */
const DICT_FIELDS: SearchField[] = (['orgType', 'track', 'region'] as const).map((name) => ({
  name,
  label: `pages.qualification.fields.${name}`,
  kind: 'dict',
  dictType: TEAM_DICT_TYPES[name],
}));

/** The filters of 资格管理 (the export takes the same). */
export const TEAM_FIELDS: SearchField[] = [
  ORG_NAME,
  ...DICT_FIELDS,
  {
    name: 'status',
    label: 'pages.qualification.fields.status',
    kind: 'select',
    options: TEAM_STATUSES.map((status) => ({ value: status, label: `files:contest.teamStatus.${status}` })),
  },
  {
    name: 'submitted',
    label: 'pages.qualification.fields.submittedAt',
    kind: 'dateTimeRange',
    fromName: 'submittedFrom',
    toName: 'submittedTo',
  },
];

/** The filters of 报名草稿: no status nor submission, every row is a draft; the team's name instead. */
export const DRAFT_FIELDS: SearchField[] = [ORG_NAME, TEAM_NAME, ...DICT_FIELDS];

/** The columns after the team's name on both lists: the organisation, its type, the track. */
export const orgColumns = (t: TFunction<'admin'>, opts: { orgTypeOptional?: boolean } = {}): SearchColumns<TeamAdminRow> => [
    { title: t('pages.qualification.fields.orgName'), dataIndex: 'orgName', key: 'orgName', sorter: true },
    // 资格管理 has it behind 列设置 at first: so its list fits a 1440 px screen beside 操作.
    { title: t('pages.qualification.fields.orgType'), dataIndex: 'orgType', dict: TEAM_DICT_TYPES.orgType, ...(opts.orgTypeOptional ? { optional: 'hidden' as const } : {}) },
    // Long English track names wrap rather than push 操作 over the last columns.
    { title: t('pages.qualification.fields.track'), dataIndex: 'track', dict: TEAM_DICT_TYPES.track, width: 150 },
];
