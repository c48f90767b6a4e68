/** 结果发布 with mocked answers (docs/api-results.md, "Admin: publication"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RESULTS_MSG, type PublishPreview, type ResultsOverview, type VersionCompare } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { resources } from '../../../i18n/resources';
import {
  ID,
  NOW,
  SLOW,
  appealRow,
  callsTo,
  compareRow,
  entry,
  mockGet,
  page,
  roundState,
  version,
} from './results-fixtures';

const OVERVIEW = '/admin/results/overview';

/** The confirm box with this title (antd writes the title twice: visible and for screen readers). */
const confirmBox = async (title: string) => (await screen.findAllByText(title))[0]!.closest<HTMLElement>('.ant-modal')!;

const overviewOf = (...rounds: ResultsOverview['rounds']): ResultsOverview => ({ now: NOW, rounds });

describe('结果发布', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('keeps the shared Chinese texts word for word', () => {
    expect(resources['zh-cn'].results.msg).toEqual(RESULTS_MSG);
  });

  it('final: the award levels are checked as the schema says, 预览 shows every line, 确认发布 shows the INCOMPLETE refusal with its projects', async () => {
    mockGet(superAdmin(), { [OVERVIEW]: overviewOf(roundState('PRELIMINARY', { canPublish: false, publishBlocker: RESULTS_MSG.noPromotion }), roundState('FINAL')) });
    const preview: PublishPreview = {
      round: 'FINAL',
      rule: version('FINAL', 1).rule,
      entries: [
        entry(1, { outcome: 'AWARDED', awardCode: 'L1', awardName: '一等奖' }),
        entry(2, { outcome: 'AWARDED', awardCode: 'L2', awardName: '二等奖' }),
        entry(3, { outcome: 'NONE', rank: null, trackRank: null, score: null }),
      ],
      total: 3,
      selected: 2,
      levels: [
        { code: 'L1', name: '一等奖', count: 1 },
        { code: 'L2', name: '二等奖', count: 1 },
      ],
      periodEndsAt: '2025-09-25T02:00:00.000Z',
      appealEndsAt: '2025-09-23T02:00:00.000Z',
    };
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/results/final/publish/preview') return ok(preview);
      if (url === '/admin/results/final/publish')
        throw refused(RESULTS_MSG.finalIncomplete, { reason: 'INCOMPLETE', projects: [{ id: ID(7), projectName: '医保项目7', count: 2, expected: 3, pending: 1 }] });
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/results/publish?round=final');
    fireEvent.click(await screen.findByTestId('publish-open', {}, SLOW));
    const dialog = await screen.findByTestId('publish-dialog');

    // Two levels without places before the last: refused here with the schema's text, nothing sent.
    fireEvent.click(within(dialog).getByTestId('publish-preview'));
    await waitFor(() => expect(within(dialog).getAllByTestId('award-level-error').map((e) => e.textContent)).toEqual([RESULTS_MSG.awardCountMissing, RESULTS_MSG.awardCountMissing]));
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('名额 1'), { target: { value: '1' } });
    fireEvent.change(within(dialog).getByLabelText('名额 2'), { target: { value: '1' } });
    // The third level goes away; the second (now last) may leave its places empty.
    fireEvent.click(within(dialog).getByLabelText('删除第 3 等'));
    fireEvent.change(within(dialog).getByLabelText('名额 2'), { target: { value: '' } });
    await waitFor(() => expect(within(dialog).queryAllByTestId('award-level-error')).toHaveLength(0));
    expect((within(dialog).getByTestId('publish-confirm') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(dialog).getByTestId('publish-preview'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/admin/results/final/publish/preview',
        { awards: { mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }, { name: '二等奖', count: null }] } },
        { silent: true },
      ),
    );
    const result = await within(dialog).findByTestId('publish-result');
    expect(within(result).getByTestId('publish-count').textContent).toBe('2 / 共 3 个项目');
    expect(within(result).getByTestId('publish-levels').textContent).toContain('一等奖 1 个');
    const tags = within(result).getAllByTestId('outcome-tag').map((e) => e.textContent);
    expect(tags).toEqual(['一等奖', '二等奖', '未获奖']);
    expect(within(result).getByText('无排名')).toBeTruthy();

    fireEvent.click(within(dialog).getByTestId('publish-confirm'));
    const confirm = await confirmBox('确认发布决赛结果？');
    expect(confirm.textContent).toContain('将公示 3 个项目的结果');
    fireEvent.click(within(confirm).getByRole('button', { name: '确认发布' }));
    const refusal = await within(dialog).findByTestId('results-refusal');
    expect(refusal.textContent).toContain(RESULTS_MSG.finalIncomplete);
    expect(within(refusal).getByTestId('refusal-projects').textContent).toContain('医保项目7 已评 2 / 应评 3，1 份评分待重新提交');
    expect(callsTo(post, '/admin/results/final/publish')).toHaveLength(1);
    // Still open, nothing read again: nothing was published.
    expect(screen.getByTestId('publish-dialog')).toBeTruthy();

    // The preliminary tab says why it cannot be published yet.
    fireEvent.click(screen.getByRole('tab', { name: '初赛' }));
    expect((await screen.findByTestId('publish-blocker')).textContent).toBe(RESULTS_MSG.noPromotion);
    expect((screen.getByTestId('publish-open') as HTMLButtonElement).disabled).toBe(true);
  });

  it('published round: countdown, appeal counts, versions compared with their movements and appeals, changed-only asks the server', async () => {
    const v2 = version('PRELIMINARY', 2, { appeals: { submitted: 1, rejected: 0, accepted: 1, resolved: 0 } });
    const v1 = version('PRELIMINARY', 1, { status: 'SUPERSEDED' });
    const compare: VersionCompare = {
      round: 'PRELIMINARY',
      a: v1,
      b: v2,
      reasons: [{ version: 2, reason: '第 2 版：申诉复评后成绩变化', publishedAt: v2.publishedAt, actorName: '运营一号' }],
      rows: [
        compareRow(3, 'IN', { rankA: 3, rankB: 1, scoreA: 80, scoreB: 88.5, outcomeA: 'NOT_PROMOTED', outcomeB: 'PROMOTED', appeals: [{ ...appealRow(3), status: 'RESOLVED', reply: '复评后成绩上调', resolvedVersion: 2 }] }),
        compareRow(1, 'OUT', { rankA: 1, rankB: 3, outcomeA: 'PROMOTED', outcomeB: 'NOT_PROMOTED' }),
        compareRow(2, 'SAME'),
      ],
      summary: { IN: 1, OUT: 1, UP: 0, DOWN: 0, SAME: 1, ADDED: 0, REMOVED: 0 },
    };
    const get = mockGet(superAdmin(), {
      [OVERVIEW]: overviewOf(
        roundState('PRELIMINARY', { published: true, current: v2, canPublish: false, inPeriod: true, appealOpen: true, appeals: { submitted: 1, rejected: 0, accepted: 1, resolved: 0, overdue: 1 } }),
        roundState('FINAL', { canPublish: false, publishBlocker: RESULTS_MSG.finalNoProjects }),
      ),
      '/admin/results/prelim/versions': { round: 'PRELIMINARY', current: v2, versions: [v2, v1] },
      '/admin/results/prelim/versions/2/entries': page([entry(1), entry(2), entry(3)]),
      '/admin/results/prelim/versions/compare': (params: Record<string, unknown> | undefined) =>
        params?.changedOnly ? { ...compare, rows: compare.rows.filter((r) => r.changed) } : compare,
    });
    renderRoute('/admin/results/publish');
    const state = await screen.findByTestId('results-state', {}, SLOW);
    await waitFor(() => expect(within(state).getByTestId('current-version').textContent).toBe('第 2 版'));
    expect(within(state).getByTestId('period-countdown').textContent).toBe('剩余 3 天 5 小时');
    expect(within(state).getByTestId('appeal-countdown').textContent).toBe('剩余 1 天 2 小时');
    expect(within(state).getByTestId('accepted-hint').textContent).toContain('有 1 个申诉已受理');
    expect(within(state).getByTestId('appeal-counts').textContent).toContain('已超期 1');
    expect(within(state).getByText('待处理 1').closest('a')!.getAttribute('href')).toBe('/admin/results/appeals?round=PRELIMINARY&status=SUBMITTED');
    expect(within(state).getByTestId('new-version-open')).toBeTruthy();

    const lines = await screen.findByTestId('results-entries');
    await waitFor(() => expect(within(lines).getByText('医保项目3')).toBeTruthy());
    expect(within(lines).getAllByTestId('outcome-tag').map((e) => e.textContent)).toEqual(['晋级决赛', '晋级决赛', '未晋级决赛']);

    const versions = screen.getByTestId('results-versions');
    await waitFor(() => expect(within(versions).getByLabelText('选择第 1 版')).toBeTruthy());
    const compareButton = within(versions).getByTestId('compare-open') as HTMLButtonElement;
    expect(compareButton.disabled).toBe(true);
    fireEvent.click(within(versions).getByLabelText('选择第 2 版'));
    fireEvent.click(within(versions).getByLabelText('选择第 1 版'));
    await waitFor(() => expect(compareButton.disabled).toBe(false));
    fireEvent.click(compareButton);

    const view = await screen.findByTestId('compare-view');
    expect(callsTo(get, '/admin/results/prelim/versions/compare')[0]![1]).toEqual({ params: { a: 1, b: 2 } });
    expect(screen.getByText('版本对比：第 1 版 → 第 2 版')).toBeTruthy();
    expect(within(view).getByTestId('compare-reason').textContent).toContain('第 2 版：申诉复评后成绩变化');
    expect(within(view).getByTestId('movement-summary').textContent).toBe('入选1落选1不变1');
    const rowOf = (name: string) => within(view).getByText(name).closest('tr')!;
    const risen = rowOf('医保项目3');
    expect(within(risen).getByTestId('movement-tag').textContent).toBe('入选');
    expect(within(risen).getAllByTestId('value-change').map((e) => e.textContent)).toEqual(['3 → 1', '80.00 → 88.50']);
    expect(within(risen).getByTestId('outcome-change').textContent).toBe('未晋级决赛→ 晋级决赛');
    expect(within(risen).getByTestId('linked-appeal').getAttribute('href')).toBe(`/admin/results/appeals/${ID(903)}`);
    expect(within(risen).getByTestId('linked-appeal').textContent).toContain('已完结');
    expect(risen.className).toContain('results-row--changed');
    expect(within(rowOf('医保项目1')).getByTestId('movement-tag').textContent).toBe('落选');
    expect(within(rowOf('医保项目2')).getByTestId('movement-tag').textContent).toBe('不变');
    expect(rowOf('医保项目2').className).not.toContain('results-row--changed');

    fireEvent.click(within(view).getByTestId('compare-changed-only'));
    await waitFor(() => expect(within(view).queryByText('医保项目2')).toBeNull());
    expect(callsTo(get, '/admin/results/prelim/versions/compare').at(-1)![1]).toEqual({ params: { a: 1, b: 2, changedOnly: true } });
  });

  it('发布新版本: the reason is required, the preview diff is confirmed, REREVIEW_UNFINISHED names the projects', async () => {
    const v1 = version('PRELIMINARY', 1);
    mockGet(superAdmin(), {
      [OVERVIEW]: overviewOf(roundState('PRELIMINARY', { published: true, current: v1, canPublish: false, inPeriod: true, appealOpen: true }), roundState('FINAL')),
      '/admin/results/prelim/versions': { round: 'PRELIMINARY', current: v1, versions: [v1] },
      '/admin/results/prelim/versions/1/entries': page([entry(1)]),
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/results/prelim/versions/preview')
        return ok({ round: 'PRELIMINARY', current: v1, rule: v1.rule, rows: [compareRow(3, 'UP', { rankA: 3, rankB: 2 }), compareRow(1, 'SAME')], summary: { IN: 0, OUT: 0, UP: 1, DOWN: 0, SAME: 1, ADDED: 0, REMOVED: 0 }, resolves: 1 });
      if (url === '/admin/results/prelim/versions')
        throw refused(RESULTS_MSG.rereviewUnfinished, { reason: 'REREVIEW_UNFINISHED', projects: [{ id: ID(3), projectName: '医保项目3', count: 1, expected: 3, pending: 2 }] });
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/results/publish');
    fireEvent.click(await screen.findByTestId('new-version-open', {}, SLOW));
    const dialog = await screen.findByTestId('new-version-dialog');
    fireEvent.click(within(dialog).getByLabelText('总排名前 N 名晋级'));
    fireEvent.click(within(dialog).getByTestId('new-version-preview'));
    // N missing: nothing sent.
    expect(await within(dialog).findByText(RESULTS_MSG.promotionNInvalid)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('晋级名额 N'), { target: { value: '2' } });
    fireEvent.click(within(dialog).getByTestId('new-version-preview'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/results/prelim/versions/preview', { selection: { mode: 'TOP_OVERALL', n: 2 } }, { silent: true }));
    const result = await within(dialog).findByTestId('new-version-result');
    expect(within(result).getByTestId('new-version-resolves').textContent).toContain('1 个复评中的申诉');
    // Changed rows only, by default.
    expect(within(result).getByText('医保项目3')).toBeTruthy();
    expect(within(result).queryByText('医保项目1')).toBeNull();

    fireEvent.click(within(dialog).getByTestId('new-version-confirm'));
    expect(await within(dialog).findByText(RESULTS_MSG.versionReasonRequired)).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('发布原因'), { target: { value: '  申诉复评后成绩变化  ' } });
    fireEvent.click(within(dialog).getByTestId('new-version-confirm'));
    const confirm = await confirmBox('确认发布第 2 版？');
    fireEvent.click(within(confirm).getByRole('button', { name: '确认发布' }));
    await waitFor(() =>
      expect(post).toHaveBeenLastCalledWith('/admin/results/prelim/versions', { selection: { mode: 'TOP_OVERALL', n: 2 }, reason: '申诉复评后成绩变化' }, { silent: true }),
    );
    const refusal = await within(dialog).findByTestId('results-refusal');
    expect(refusal.textContent).toContain(RESULTS_MSG.rereviewUnfinished);
    expect(within(refusal).getByTestId('refusal-projects').getAttribute('data-reason')).toBe('REREVIEW_UNFINISHED');
    expect(refusal.textContent).toContain('医保项目3 已评 1 / 应评 3');
  });

  it('without result:publish the page only reads: no 发布 or 发布新版本, versions and lines still shown', async () => {
    const v1 = version('PRELIMINARY', 1);
    mockGet(operator(['results'], []), {
      [OVERVIEW]: overviewOf(roundState('PRELIMINARY', { published: true, current: v1, canPublish: false }), roundState('FINAL')),
      '/admin/results/prelim/versions': { round: 'PRELIMINARY', current: v1, versions: [v1] },
      '/admin/results/prelim/versions/1/entries': page([entry(1)]),
    });
    renderRoute('/admin/results/publish');
    const lines = await screen.findByTestId('results-entries', {}, SLOW);
    await waitFor(() => expect(within(lines).getByText('医保项目1')).toBeTruthy());
    expect(screen.getByTestId('results-versions')).toBeTruthy();
    expect(screen.queryByTestId('new-version-open')).toBeNull();
    expect(screen.queryByTestId('publish-open')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: '决赛' }));
    expect(await screen.findByTestId('results-unpublished')).toBeTruthy();
    expect(screen.queryByTestId('publish-open')).toBeNull();
  });
});
