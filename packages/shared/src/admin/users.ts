import { z } from 'zod';
import { TEAM_STATUSES, type TeamStatus } from '../enums.js';
import { dateQuery, enabledQuery, keywordQuery, optionalQuery, pageQueryFields, rangeIsOrdered, type IsoDateTime } from './common.js';
import { ADMIN_MSG as M } from './messages.js';

/** Team status filter: a status, or NONE for accounts without a team. */
export const USER_TEAM_STATUS_FILTERS = [...TEAM_STATUSES, 'NONE'] as const;
export type UserTeamStatusFilter = (typeof USER_TEAM_STATUS_FILTERS)[number];

/** Most rows one export writes; a wider search is refused with a message to narrow it. */
export const USER_EXPORT_MAX_ROWS = 50_000;

const userFilterFields = {
  username: keywordQuery,
  phone: keywordQuery,
  /** Organisation name (teams.org_name), contains. */
  orgName: keywordQuery,
  teamStatus: optionalQuery(z.enum(USER_TEAM_STATUS_FILTERS, { error: M.teamStatusInvalid })),
  enabled: enabledQuery,
  /** Registration date range, Beijing days, both inclusive. */
  from: dateQuery,
  to: dateQuery,
};

export const userFilterSchema = z.object(userFilterFields).refine(rangeIsOrdered, { message: M.dateRangeInvalid, path: ['from'] });
export type UserFilter = z.infer<typeof userFilterSchema>;

export const userListQuerySchema = z
  .object({ ...pageQueryFields, ...userFilterFields })
  .refine(rangeIsOrdered, { message: M.dateRangeInvalid, path: ['from'] });
export type UserListQuery = z.infer<typeof userListQuerySchema>;

export interface UserTeamBrief {
  id: string;
  teamName: string;
  orgName: string;
  status: TeamStatus;
  track: string | null;
}

export interface RegisteredUser {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  enabled: boolean;
  createdAt: IsoDateTime;
  lastLoginAt: IsoDateTime | null;
  team: UserTeamBrief | null;
}

export interface RegisteredUserDetail extends RegisteredUser {
  agreedAt: IsoDateTime | null;
  passwordChangedAt: IsoDateTime | null;
  team:
    | (UserTeamBrief & {
        orgType: string | null;
        creditCode: string | null;
        region: string | null;
        city: string | null;
        leaderName: string | null;
        leaderPhone: string | null;
        memberCount: number;
        submittedAt: IsoDateTime | null;
        updatedAt: IsoDateTime;
      })
    | null;
}

/** Column headers of the export, in order. */
export const USER_EXPORT_COLUMNS = [
  { key: 'username', header: '用户名' },
  { key: 'name', header: '姓名' },
  { key: 'phone', header: '手机号' },
  { key: 'email', header: '邮箱' },
  { key: 'orgName', header: '单位名称' },
  { key: 'teamName', header: '团队名称' },
  { key: 'teamStatus', header: '报名状态' },
  { key: 'enabled', header: '账号状态' },
  { key: 'createdAt', header: '注册时间' },
  { key: 'lastLoginAt', header: '最近登录时间' },
] as const;

export const TEAM_STATUS_LABELS: Record<TeamStatus, string> = {
  DRAFT: '草稿',
  SUBMITTED: '已提交',
  APPROVED: '审核通过',
  REVISING: '退回修改',
  REJECTED: '审核不通过',
};
