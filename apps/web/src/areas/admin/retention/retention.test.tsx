/** 数据保留 and 个人数据申请, with mocked answers (docs/retention.md). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminDataRequestItem, Page, RetentionOverview, RetentionRunItem } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { changeLocale } from '../../../i18n';
import type { StaffInfo } from '../../../lib/session';

const SLOW = { timeout: 20_000 };

const OVERVIEW: RetentionOverview = {
  contestEndsAt: '2025-11-30T10:00:00.000Z',
  kinds: [
    { kind: 'MATERIAL_FILES', days: 180, dueAt: '2026-05-29T10:00:00.000Z', due: true },
    { kind: 'SIGNUP_FILES', days: 180, dueAt: '2026-05-29T10:00:00.000Z', due: true },
    { kind: 'PARTICIPANT_DATA', days: 365, dueAt: '2026-11-30T10:00:00.000Z', due: false },
    { kind: 'EXPERT_DATA', days: 365, dueAt: '2026-11-30T10:00:00.000Z', due: false },
    { kind: 'LOGIN_RECORDS', days: 180, dueAt: '2026-05-29T10:00:00.000Z', due: true },
    { kind: 'OPERATION_RECORDS', days: 1095, dueAt: '2028-11-29T10:00:00.000Z', due: false },
  ],
  active: null,
};

const run = (over: Partial<RetentionRunItem> = {}): RetentionRunItem => ({
  id: 'run-1',
  source: 'RETENTION',
  status: 'PLANNED',
  dryRun: true,
  createdBy: 'admin',
  createdAt: '2026-06-01T02:00:00.000Z',
  startedBy: null,
  startedAt: null,
  finishedAt: null,
  counts: { MATERIAL_FILES: 3, SIGNUP_FILES: 2, LOGIN_RECORDS: 10 },
  done: {},
  skipped: 0,
  samples: [
    { kind: 'MATERIAL_FILES', label: '申报书.pdf', at: '2025-09-01T02:00:00.000Z' },
    { kind: 'LOGIN_RECORDS', label: '139****5678', at: '2025-09-01T02:00:00.000Z' },
  ],
  lastError: null,
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

function mockAdmin(info: StaffInfo, runs: RetentionRunItem[] = []) {
  localStorage.setItem('AdminToken', 'admin-token');
  const get = vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url === '/admin/retention') return ok(OVERVIEW);
    if (url === '/admin/retention/runs') return ok(page(runs));
    if (url === '/admin/data-requests') return ok(page([request()]));
    throw new Error(`unexpected GET ${url}`);
  });
  const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/admin/retention/dry-run') return ok(run());
    if (url === '/admin/retention/runs/run-1/execute') return ok(run({ status: 'QUEUED', dryRun: false }));
    if (url === '/admin/data-requests/req-1/decide') return ok({ ...request(), status: 'WAITING', waitReason: 'APPEAL_OPEN', version: 2 });
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const request = (over: Partial<AdminDataRequestItem> = {}): AdminDataRequestItem => ({
  id: 'req-1',
  kind: 'DELETE',
  status: 'PENDING',
  reason: '不再参赛，请删除我的信息',
  reply: null,
  waitReason: null,
  createdAt: '2026-06-01T02:00:00.000Z',
  decidedAt: null,
  doneAt: null,
  expiresAt: null,
  size: null,
  version: 1,
  account: { id: 'acc-1', username: 'demo1', name: '张三', phone: '139****5678' },
  decidedBy: null,
  ...over,
});

describe('数据保留', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('shows each kind with its period, due date and state; 预演 shows counts and a masked sample; 执行 runs that plan after a confirmation', async () => {
    const { post } = mockAdmin(superAdmin());
    renderRoute('/admin/system/retention');
    expect(await screen.findByRole('heading', { name: '数据保留' }, SLOW)).toBeTruthy();
    const kinds = await screen.findByTestId('retention-kinds', {}, SLOW);
    await waitFor(() => expect(within(kinds).getByText('初赛材料文件')).toBeTruthy(), SLOW);
    expect(within(kinds).getAllByText('已到期')).toHaveLength(3);
    expect(within(kinds).getAllByText('未到期')).toHaveLength(3);

    fireEvent.click(screen.getByTestId('retention-dry-run'));
    const plan = await screen.findByTestId('retention-plan', {}, SLOW);
    expect(post).toHaveBeenCalledWith('/admin/retention/dry-run');
    expect(plan.textContent).toContain('申报书.pdf');
    expect(plan.textContent).toContain('139****5678');
    expect(plan.textContent).toContain('登录记录');

    fireEvent.click(within(plan).getByTestId('retention-run'));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    expect(dialog.textContent).toContain('共 15 项');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/retention/runs/run-1/execute'), SLOW);
  });

  it('an operator without retention:run sees the periods and history but no 预演', async () => {
    mockAdmin(operator(['system', 'dataRetention'], []), [run({ status: 'DONE', done: { MATERIAL_FILES: 3 }, finishedAt: '2026-06-01T03:00:00.000Z' })]);
    renderRoute('/admin/system/retention');
    await screen.findByTestId('retention-kinds', {}, SLOW);
    await waitFor(() => expect(screen.getByText('已完成')).toBeTruthy(), SLOW);
    expect(screen.queryByTestId('retention-dry-run')).toBeNull();
  });

  it('English: the page speaks English', async () => {
    changeLocale('en');
    mockAdmin(superAdmin());
    renderRoute('/admin/system/retention?lang=en');
    expect(await screen.findByRole('heading', { name: 'Data retention' }, SLOW)).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Preliminary material files')).toBeTruthy(), SLOW);
    expect(screen.getByTestId('retention-dry-run').textContent).toContain('Preview');
  });
});

describe('个人数据申请', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('a pending deletion is decided with a reply at the version shown; the answer says what it waits for', async () => {
    const { post } = mockAdmin(superAdmin());
    renderRoute('/admin/system/data-requests');
    expect(await screen.findByRole('heading', { name: '个人数据申请' }, SLOW)).toBeTruthy();
    fireEvent.click(await screen.findByTestId('data-request-decide', {}, SLOW));
    const dialog = await screen.findByRole('dialog', {}, SLOW);
    // A reply is required: nothing is sent without one.
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*认/ }));
    expect(await within(dialog).findByText('请填写答复意见', {}, SLOW)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '同意' } });
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*认/ }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/data-requests/req-1/decide', { decision: 'APPROVE', reply: '同意', version: 1 }), SLOW);
    expect(await screen.findByText('已批准，等待执行：您的申诉尚未处理完毕', {}, SLOW)).toBeTruthy();
  });
});
