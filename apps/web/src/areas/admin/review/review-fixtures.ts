/** Answers of the review calls and a GET mock, for the review pages' tests. */
import { vi } from 'vitest';
import type { ExpertRow, GroupView, GroupsOverview, Page, RoundProjectRow } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import type { StaffInfo } from '../../../lib/session';

/** The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s. */
export const SLOW = { timeout: 20_000 };

export const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const page = <T,>(list: T[], total = list.length): Page<T> => ({ list, page: 1, size: 10, total });

export const DICT: Record<string, Record<string, string>> = {
  TRACK: { SMART_SUPERVISION: '智能监管与基金安全', SMART_SERVICE: '智慧医保服务' },
};

type Answer = unknown | ((params: Record<string, unknown> | undefined) => unknown);

/** GET answers by path (a function gets the params; an Error is thrown); the account and dictionaries built in. */
export function mockGet(info: StaffInfo, answers: Record<string, Answer>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const params = config?.params;
    if (url === '/admin/user/account') return ok(info);
    const types = (params?.types as string[] | undefined) ?? [];
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public')
      return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url in answers) {
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      return ok(typeof answer === 'function' ? (answer as (p: unknown) => unknown)(params) : answer);
    }
    throw new Error(`unexpected GET ${url}`);
  });
}

export const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

/** A dialog gone, or on its way out (jsdom never ends antd's leave animation). */
export const closing = (dialog: HTMLElement) =>
  !dialog.isConnected || dialog.closest('.ant-zoom-leave') !== null || dialog.querySelector('.ant-zoom-leave') !== null;

export const expertRow = (n: number, over: Partial<ExpertRow> = {}): ExpertRow => ({
  id: ID(100 + n),
  code: `E000${n}`,
  username: `E000${n}`,
  name: `专家${n}`,
  phone: `1380000000${n}`,
  organization: `第${n}医科大学`,
  orgCreditCode: null,
  title: null,
  tracks: ['SMART_SUPERVISION'],
  declaredOrgs: [],
  enabled: true,
  agreed: true,
  groups: { PRELIMINARY: null, FINAL: null },
  lastLoginAt: null,
  createdAt: '2025-05-01T02:00:00Z',
  ...over,
});

export const groupView = (n: number, over: Partial<GroupView> = {}): GroupView => ({
  id: ID(200 + n),
  name: `第${n}评审组`,
  version: n,
  experts: [
    { id: ID(100 + n), code: `E000${n}`, name: `专家${n}`, organization: `第${n}医科大学`, tracks: ['SMART_SUPERVISION'], enabled: true },
  ],
  projectCount: 3 * n,
  tracks: ['SMART_SUPERVISION'],
  sheetCount: 0,
  ...over,
});

export const overview = (groups: GroupView[], over: Partial<GroupsOverview> = {}): GroupsOverview => ({
  round: 'PRELIMINARY',
  groups,
  eligible: 12,
  unassigned: 3,
  minExperts: 5,
  ...over,
});

export const projectRow = (n: number, over: Partial<RoundProjectRow> = {}): RoundProjectRow => ({
  id: ID(n),
  projectName: `医保智能审核${n}号`,
  teamName: `智慧医保${n}队`,
  orgName: `第${n}人民医院`,
  track: 'SMART_SUPERVISION',
  groupId: ID(201),
  groupName: '第1评审组',
  source: 'AUTO',
  reason: '方向「智能监管与基金安全」由本组 1 名专家覆盖；本组当前负载最低（3 个项目）',
  expected: 4,
  scoresIn: 1,
  hasSheets: false,
  conflicts: [],
  ...over,
});
