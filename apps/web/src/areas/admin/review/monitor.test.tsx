/** 评分监控 and its detail page, both rounds, with mocked answers (packages/shared/src/review/api.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { MonitorExpertDetail, MonitorExpertRow, MonitorProjectRow, RemindExpertsResult } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, groupView, mockGet, overview, page } from './review-fixtures';

const expert = (n: number, over: Partial<MonitorExpertRow> = {}): MonitorExpertRow => ({
  expertId: ID(100 + n),
  code: `E000${n}`,
  name: `专家${n}`,
  groupName: '第1评审组',
  assigned: 8,
  submitted: 5,
  draft: 2,
  returned: 1,
  remaining: 3,
  lastActivityAt: '2025-07-02T02:00:00Z',
  remindedToday: false,
  ...over,
});

const project = (n: number, over: Partial<MonitorProjectRow> = {}): MonitorProjectRow => ({
  id: ID(n),
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  groupName: '第1评审组',
  scoresIn: 3,
  expected: 5,
  drafts: 1,
  spread: 8.5,
  divergent: false,
  ...over,
});

const expertDetail = (over: Partial<MonitorExpertDetail['expert']> = {}): MonitorExpertDetail => ({
  expert: { ...expert(1), phone: '13800000001', organization: '第1医科大学', ...over },
  projects: [
    {
      id: ID(1),
      projectName: '医保智能审核1号',
      track: 'SMART_SUPERVISION',
      status: 'SUBMITTED',
      total: 88.5,
      updatedAt: '2025-07-02T02:00:00Z',
      submittedAt: '2025-07-02T02:00:00Z',
      groupName: '第1评审组',
      extra: false,
    },
    { id: ID(2), projectName: '医保智能审核2号', track: 'SMART_SUPERVISION', status: 'NONE', total: null, updatedAt: null, submittedAt: null, groupName: '第2评审组', extra: true },
  ],
});

const EXPERTS = '/admin/review/prelim/monitor/experts';
const REMIND = '/admin/review/prelim/monitor/remind';

describe('scoring monitor pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('按专家: progress per expert; remind the selected and everyone not finished, with the result; the detail link', async () => {
    const get = mockGet(superAdmin(), {
      [EXPERTS]: page([expert(1), expert(2, { remaining: 0, submitted: 8, draft: 0, returned: 0 }), expert(3, { remindedToday: true })]),
      '/admin/review/prelim/groups': overview([groupView(1)]),
      [`${EXPERTS}/${ID(101)}`]: expertDetail(),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok<RemindExpertsResult>({ reminded: 1, skipped: 1 }));
    const { router } = renderRoute('/admin/grade/scoringMonitoringExpert?late=true');
    const first = (await screen.findByText('专家1', {}, SLOW)).closest('tr')!;
    expect(callsTo(get, EXPERTS)[0]![1]).toEqual({ params: { late: 'true', page: 1, size: 10 } });
    const cells = Array.from(first.querySelectorAll('td')).map((td) => td.textContent);
    expect(cells).toEqual(expect.arrayContaining(['E0001', '第1评审组', '8', '5', '2', '1', '3']));
    expect(first.textContent).toContain('2025-07-02');
    const second = screen.getByText('专家2').closest('tr')!;
    expect((within(second).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect(within(second).queryByTestId('row-remind')).toBeNull();
    const third = screen.getByText('专家3').closest('tr')!;
    expect(third.textContent).toContain('今日已提醒');
    expect((within(third).getByTestId('row-remind') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(third).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('remind-selected'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(REMIND, { expertIds: [ID(101), ID(103)] }));
    expect(await screen.findByText('已提醒 1 名专家，跳过 1 名（已完成、今日已提醒或不在本轮）')).toBeTruthy();
    await waitFor(() => expect(callsTo(get, EXPERTS).length).toBeGreaterThan(1));

    fireEvent.click(within(first).getByTestId('row-remind'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(REMIND, { expertIds: [ID(101)] }));

    fireEvent.click(screen.getByTestId('remind-all'));
    const confirm = (await screen.findByText(/确定提醒全部尚未完成评分的专家吗/)).closest<HTMLElement>('.ant-modal')!;
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(REMIND, { all: true }));

    fireEvent.click(within(first).getByRole('link', { name: '专家1' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/scoring-monitoring-expert-detail/${ID(101)}`));
    expect(await screen.findByTestId('monitor-detail-page', {}, SLOW)).toBeTruthy();
  });

  it('按项目: scores in / expected, drafts, spread and divergence; the incomplete filter', async () => {
    const get = mockGet(superAdmin(), {
      [EXPERTS]: page([]),
      '/admin/review/prelim/monitor/projects': page([project(1), project(2, { scoresIn: 5, divergent: true, spread: 30 })]),
      '/admin/review/prelim/groups': overview([groupView(1)]),
    });
    renderRoute('/admin/grade/scoringMonitoringExpert?tab=projects');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('3 / 5');
    expect(first.textContent).toContain('8.50');
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'));
    const second = screen.getByText('医保智能审核2号').closest('tr')!;
    expect(within(second).getByTestId('divergent-tag').textContent).toBe('分歧');
    expect(within(first).getByRole('link', { name: '医保智能审核1号' }).getAttribute('href')).toBe(`/admin/competition/grade-detail/${ID(1)}`);

    const form = screen.getByTestId('kit-search-form');
    fireEvent.mouseDown(within(form).getByLabelText('评分进度'));
    fireEvent.click(await screen.findByText('仅未评完', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(form).getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(callsTo(get, '/admin/review/prelim/monitor/projects').at(-1)![1]).toEqual({ params: { incomplete: 'true', page: 1, size: 10 } }),
    );
  });

  it('评分监控详情: the expert\'s figures and projects with their sheet state and re-review tag; 提醒', async () => {
    mockGet(superAdmin(), { [`${EXPERTS}/${ID(101)}`]: expertDetail() });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok<RemindExpertsResult>({ reminded: 1, skipped: 0 }));
    renderRoute(`/admin/competition/scoring-monitoring-expert-detail/${ID(101)}`);
    const view = await screen.findByTestId('monitor-detail-page', {}, SLOW);
    expect(within(view).getByTestId('detail-section-expert').textContent).toContain('第1医科大学');
    expect(within(view).getByTestId('detail-section-figures').textContent).toContain('未完成3');
    const projects = within(view).getByTestId('detail-section-projects');
    const one = within(projects).getByText('医保智能审核1号').closest('tr')!;
    expect(within(one).getByTestId('sheet-status').textContent).toBe('已提交');
    expect(one.textContent).toContain('88.5');
    const two = within(projects).getByText('医保智能审核2号').closest('tr')!;
    expect(within(two).getByTestId('sheet-status').textContent).toBe('未评');
    expect(within(two).getByTestId('extra-tag').textContent).toBe('复评');
    expect(two.textContent).toContain('第2评审组');

    fireEvent.click(within(view).getByTestId('detail-remind'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(REMIND, { expertIds: [ID(101)] }));
  });

  it('决赛评分监控 without the remind button: the final round\'s data, no selection, no remind anywhere', async () => {
    const get = mockGet(operator(['final'], []), {
      '/admin/review/final/monitor/experts': page([expert(1)]),
      '/admin/review/final/groups': overview([groupView(1)], { round: 'FINAL' }),
      [`/admin/review/final/monitor/experts/${ID(101)}`]: expertDetail(),
    });
    const { router } = renderRoute('/admin/grade/scoringMonitoringAdminExpert');
    const first = (await screen.findByText('专家1', {}, SLOW)).closest('tr')!;
    expect(screen.getByRole('heading', { name: '决赛评分监控' })).toBeTruthy();
    expect(within(first).queryByRole('checkbox')).toBeNull();
    expect(within(first).queryByTestId('row-remind')).toBeNull();
    expect(screen.queryByTestId('kit-batch-bar')).toBeNull();
    expect(screen.queryByTestId('remind-all')).toBeNull();
    fireEvent.click(within(first).getByTestId('expert-detail'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/scoring-monitoring-expert-admin-detail/${ID(101)}`));
    const view = await screen.findByTestId('monitor-detail-page', {}, SLOW);
    expect(within(view).queryByTestId('detail-remind')).toBeNull();
    expect(callsTo(get, EXPERTS)).toHaveLength(0);
  });
});
