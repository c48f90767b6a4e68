/** 成绩查询 and 成绩详情, both rounds, with mocked answers (packages/shared/src/review/api.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_RUBRICS, type ProjectAggregate, type ScoreDetail, type ScoreList, type ScoreRow } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, closing, expertRow, groupView, mockGet, overview, page } from './review-fixtures';

const CRITERIA = DEFAULT_RUBRICS.PRELIMINARY;
const RULE = { aggregate: 'TRIMMED_MEAN' as const, minScoresForTrim: 5, tieBreak: ['RULE_SCORE' as const, 'TRIMMED_MEAN' as const, 'CRITERIA' as const, 'RAW_MEAN' as const] };

const aggregate = (n: number, over: Partial<ProjectAggregate> = {}): ProjectAggregate => ({
  projectId: ID(n),
  track: 'SMART_SUPERVISION',
  count: 5,
  expected: 5,
  mean: 80.4,
  trimmedMean: 81.333,
  trimmed: true,
  droppedExpertIds: [ID(101), ID(105)],
  median: 81,
  zMean: 79.876,
  criteria: { innovation: 20.5, feasibility: 21, value: 24, completeness: 15.5 },
  spread: 12,
  divergent: false,
  ruleScore: 81.333,
  rank: n,
  trackRank: n,
  decidedBy: null,
  ...over,
});

const scoreRow = (n: number, over: Partial<ScoreRow> = {}): ScoreRow => ({
  ...aggregate(n),
  projectName: `医保智能审核${n}号`,
  teamName: `智慧医保${n}队`,
  orgName: `第${n}人民医院`,
  groupName: '第1评审组',
  ...over,
});

const scoreList = (list: ScoreRow[], round: 'PRELIMINARY' | 'FINAL' = 'PRELIMINARY'): ScoreList => ({
  round,
  rule: RULE,
  criteria: round === 'FINAL' ? DEFAULT_RUBRICS.FINAL : CRITERIA,
  divergenceThreshold: 20,
  roundMean: 75.5,
  roundSd: 8.25,
  list,
  page: 1,
  size: 10,
  total: list.length,
});

const sheet = (over: Partial<NonNullable<ScoreDetail['experts'][number]['sheet']>> = {}) => ({
  id: 'sheet-1',
  status: 'SUBMITTED' as const,
  scores: { innovation: 22, feasibility: 23, value: 27, completeness: 18 },
  comment: '创新点突出，数据来源清晰',
  total: 90,
  version: 3,
  returnReason: null,
  submittedAt: '2025-07-02T02:00:00Z',
  updatedAt: '2025-07-02T02:00:00Z',
  dropped: false,
  revisions: [],
  ...over,
});

const detail = (over: Partial<ScoreDetail> = {}): ScoreDetail => ({
  round: 'PRELIMINARY',
  project: { id: ID(1), projectName: '医保智能审核1号', teamName: '智慧医保1队', orgName: '第1人民医院', track: 'SMART_SUPERVISION', groupId: ID(201), groupName: '第1评审组' },
  aggregate: aggregate(1, { divergent: true, spread: 25 }),
  rule: RULE,
  criteria: CRITERIA,
  divergenceThreshold: 20,
  experts: [
    { expertId: ID(101), expertCode: 'E0001', expertName: '专家1', extra: false, sheet: sheet({ dropped: true }) },
    {
      expertId: ID(102),
      expertCode: 'E0002',
      expertName: '专家2',
      extra: false,
      sheet: sheet({
        id: 'sheet-2',
        status: 'RETURNED',
        total: 65,
        returnReason: '评分与评语不一致',
        revisions: [
          {
            scores: { innovation: 10, feasibility: 15, value: 20, completeness: 20 },
            total: 65,
            comment: '一般',
            submittedAt: '2025-07-01T02:00:00Z',
            returnedAt: '2025-07-01T08:00:00Z',
            returnedBy: '运营一号',
            reason: '评分与评语不一致',
          },
        ],
      }),
    },
    { expertId: ID(103), expertCode: 'E0003', expertName: '专家3', extra: true, sheet: null },
  ],
  conflicts: [
    {
      expertId: ID(109),
      expertCode: 'E0009',
      expertName: '专家9',
      cause: { kind: 'CREDIT_CODE', via: 'DECLARED', expertOrg: '第1人民医院', teamOrg: '第1人民医院', text: '同一统一社会信用代码 91110000123456789X' },
    },
  ],
  // The SHEET workflow's entries (a sheet's states in the materials' history type), oldest first here.
  history: [
    { id: 'h1', fromStatus: null, toStatus: 'SUBMITTED', reason: null, actorRealm: 'EXPERT', actorName: '专家2', createdAt: '2025-07-01T02:00:00Z' },
    {
      id: 'h2',
      fromStatus: 'SUBMITTED',
      toStatus: 'RETURNED' as unknown as 'SUBMITTED',
      reason: '评分与评语不一致',
      actorRealm: 'ADMIN',
      actorName: '运营一号',
      createdAt: '2025-07-01T08:00:00Z',
    },
  ],
  ...over,
});

describe('score query pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('成绩查询: ranks, rule score in bold, aggregates, criterion means, divergence and tie tags; the rule in words; export with the filters', async () => {
    const get = mockGet(superAdmin(), {
      '/admin/review/prelim/scores': scoreList([
        scoreRow(1, { divergent: true, spread: 25 }),
        scoreRow(2, { rank: 2, decidedBy: 'TRIMMED_MEAN' }),
        scoreRow(3, { rank: 2, decidedBy: 'EQUAL' }),
        scoreRow(4, { rank: null, trackRank: null, count: 0, ruleScore: null, mean: null, trimmedMean: null, median: null, zMean: null, spread: null }),
      ]),
      '/admin/review/prelim/groups': overview([groupView(1)]),
      '/admin/review/prelim/scores/export': null,
      [`/admin/review/prelim/scores/${ID(1)}`]: detail(),
    });
    const { router } = renderRoute('/admin/grade/gradeManage-grade?divergent=true');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(callsTo(get, '/admin/review/prelim/scores')[0]![1]).toEqual({ params: { divergent: 'true', page: 1, size: 10 } });
    expect(within(first).getByTestId('rule-score').tagName).toBe('STRONG');
    expect(within(first).getByTestId('rule-score').textContent).toBe('81.33');
    expect(first.textContent).toContain('5 / 5');
    // The other aggregates are behind 列设置 at first (a 1440 px screen shows the ranking columns);
    // chosen, they show, and the choice is kept for the next visit.
    expect(screen.queryByRole('columnheader', { name: '平均分' })).toBeNull();
    expect(screen.queryByRole('columnheader', { name: '创新性（25）均分' })).toBeNull();
    fireEvent.click(screen.getByTestId('kit-columns'));
    const picker = await screen.findByTestId('kit-column-picker');
    fireEvent.click(within(picker).getByLabelText('平均分'));
    fireEvent.click(within(picker).getByLabelText('标准分（z-score）平均'));
    fireEvent.click(within(picker).getByLabelText('创新性（25）均分'));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: '平均分' })).toBeTruthy());
    expect(JSON.parse(localStorage.getItem('kit-columns:scores-prelim')!)).toMatchObject({ mean: true, median: false });
    const shown = screen.getByText('医保智能审核1号').closest('tr')!;
    expect(shown.textContent).toContain('80.40');
    expect(shown.textContent).toContain('79.88');
    expect(shown.textContent).toContain('20.50');
    expect(within(first).getByTestId('divergent-tag').textContent).toBe('分歧');
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'));
    expect(within(screen.getByText('医保智能审核2号').closest('tr')!).getByTestId('decided-by').textContent).toBe('去掉最高最低分后平均');
    expect(within(screen.getByText('医保智能审核3号').closest('tr')!).getByTestId('decided-by').textContent).toBe('并列');
    expect(screen.getByText('医保智能审核4号').closest('tr')!.textContent).toContain('未排名');
    expect(screen.getByRole('columnheader', { name: '创新性（25）均分' })).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: '排名得分（去掉最高最低分后平均）' })).toBeTruthy();

    const rule = screen.getByTestId('scores-rule').textContent!;
    expect(rule).toContain('按「去掉最高最低分后平均」排名（评分不少于 5 份时去掉一个最高分和一个最低分）');
    expect(rule).toContain('排名依据得分 → 去掉最高最低分后平均 → 按评分指标顺序逐项比较 → 原始平均分');
    expect(rule).toContain('相差超过 20 分');
    expect(rule).toContain('平均 75.50，标准差 8.25');

    fireEvent.click(screen.getByTestId('kit-export'));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/review/prelim/scores/export', { params: { divergent: 'true' }, responseType: 'blob' }),
    );

    fireEvent.click(within(first).getByTestId('score-detail'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/grade-detail/${ID(1)}`));
    expect(await screen.findByTestId('score-detail-page', {}, SLOW)).toBeTruthy();
  });

  it('成绩详情: aggregates, every sheet (dropped, re-review, earlier submissions), conflicts; 退回 sends the version; 发起复评 the experts and reason', async () => {
    mockGet(superAdmin(), {
      [`/admin/review/prelim/scores/${ID(1)}`]: detail(),
      '/admin/expert/list': page([expertRow(1, { groups: { PRELIMINARY: '第1评审组', FINAL: null } }), expertRow(4, { groups: { PRELIMINARY: '第2评审组', FINAL: null } })]),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null));
    renderRoute(`/admin/competition/grade-detail/${ID(1)}`);
    const view = await screen.findByTestId('score-detail-page', {}, SLOW);
    expect(within(view).getByTestId('detail-rule-score').textContent).toBe('81.33');
    const aggregates = within(view).getByTestId('detail-section-aggregate').textContent!;
    expect(aggregates).toContain('已去掉一个最高分和一个最低分');
    expect(aggregates).toContain('25.00');
    expect(aggregates).toContain('分歧');
    expect(aggregates).toContain('79.88');

    const sheets = within(view).getByTestId('detail-section-sheets');
    const one = within(sheets).getByText('E0001').closest('tr')!;
    expect(one.textContent).toContain('90');
    expect(one.textContent).toContain('创新点突出');
    expect(within(one).getByTestId('dropped-tag').textContent).toBe('已去除');
    expect(within(one).getByTestId('sheet-status').textContent).toBe('已提交');
    const two = within(sheets).getByText('E0002').closest('tr')!;
    expect(within(two).getByTestId('sheet-status').textContent).toBe('被退回');
    expect(two.textContent).toContain('评分与评语不一致');
    expect(within(two).queryByTestId('sheet-return')).toBeNull();
    fireEvent.click(two.querySelector('.ant-table-row-expand-icon')!);
    const revisions = await within(sheets).findByTestId('sheet-revisions');
    expect(revisions.textContent).toContain('运营一号');
    expect(revisions.textContent).toContain('2025-07-01');
    expect(revisions.textContent).toContain('一般');
    const three = within(sheets).getByText('E0003').closest('tr')!;
    expect(within(three).getByTestId('extra-tag').textContent).toBe('复评');
    expect(within(three).getByTestId('sheet-status').textContent).toBe('未评');
    expect(within(view).getByTestId('detail-section-conflicts').textContent).toContain('同一统一社会信用代码 91110000123456789X');
    const history = within(view).getByTestId('sheet-history');
    expect(within(history).getAllByTestId('sheet-history-item').map((i) => i.textContent)).toEqual([
      expect.stringContaining('运营一号（运营人员）：已提交 → 被退回'),
      expect.stringContaining('专家2（评审专家）：已提交'),
    ]);
    expect(history.textContent).toContain('原因：评分与评语不一致');

    fireEvent.click(within(one).getByTestId('sheet-return'));
    const dialog = await screen.findByTestId('review-reason-dialog');
    expect(dialog.textContent).toContain('E0001 专家1');
    fireEvent.click(within(dialog).getByRole('button', { name: '退回' }));
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText('退回原因'), { target: { value: '总分与评语不符' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '退回' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/admin/review/prelim/sheets/sheet-1/return', { reason: '总分与评语不符', version: 3 }, { silent: true }),
    );
    expect(await screen.findByText('评分已退回，已通知专家')).toBeTruthy();
    await waitFor(() => expect(closing(dialog)).toBe(true));

    fireEvent.click(within(view).getByTestId('rereview-open'));
    const rereview = await screen.findByTestId('rereview-dialog');
    fireEvent.mouseDown(within(rereview).getByRole('combobox'));
    await waitFor(() => expect(screen.getAllByTestId('expert-option')).toHaveLength(2));
    const [busy, free] = screen.getAllByTestId('expert-option');
    expect(busy!.textContent).toContain('已在评审该项目');
    expect(busy!.closest('.ant-select-item-option')!.className).toContain('disabled');
    // Re-review experts may come from another group: shown, still choosable.
    expect(free!.textContent).toContain('评审组：第2评审组');
    fireEvent.click(free!);
    fireEvent.change(within(rereview).getByLabelText('原因'), { target: { value: '评分分歧较大' } });
    fireEvent.click(within(rereview).getByRole('button', { name: '发起复评' }));
    await waitFor(() =>
      expect(post).toHaveBeenLastCalledWith(
        `/admin/review/prelim/projects/${ID(1)}/rereview`,
        { mode: 'ADD_EXPERTS', expertIds: [ID(104)], reason: '评分分歧较大' },
        { silent: true },
      ),
    );
    expect(await screen.findByText('已发起复评')).toBeTruthy();
  });

  it('成绩详情: 退回全部评分 sends no experts', async () => {
    mockGet(superAdmin(), { [`/admin/review/prelim/scores/${ID(1)}`]: detail(), '/admin/expert/list': page([]) });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null));
    renderRoute(`/admin/competition/grade-detail/${ID(1)}`);
    fireEvent.click(await screen.findByTestId('rereview-open', {}, SLOW));
    const rereview = await screen.findByTestId('rereview-dialog');
    fireEvent.click(within(rereview).getByLabelText('退回全部评分'));
    expect(await within(rereview).findByText('本项目全部已提交的评分将退回给原专家重新评分。')).toBeTruthy();
    fireEvent.change(within(rereview).getByLabelText('原因'), { target: { value: '复核' } });
    fireEvent.click(within(rereview).getByRole('button', { name: '发起复评' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/review/prelim/projects/${ID(1)}/rereview`, { mode: 'RETURN_ALL', expertIds: [], reason: '复核' }, { silent: true }),
    );
  });

  it('成绩详情: an expert who abstained shows 已回避 with the reason, and no 退回', async () => {
    const abstained = { expertId: ID(104), expertCode: 'E0004', expertName: '专家4', extra: false, sheet: sheet({ id: 'sheet-4', status: 'ABSTAINED', total: 0, returnReason: '曾指导该团队', submittedAt: null }) };
    mockGet(superAdmin(), { [`/admin/review/prelim/scores/${ID(1)}`]: detail({ experts: [...detail().experts, abstained] }), '/admin/expert/list': page([]) });
    renderRoute(`/admin/competition/grade-detail/${ID(1)}`);
    const sheets = await screen.findByTestId('detail-section-sheets', {}, SLOW);
    const four = within(sheets).getByText('E0004').closest('tr')!;
    expect(within(four).getByTestId('sheet-status').textContent).toBe('已回避');
    expect(within(four).getByTestId('abstain-reason').textContent).toBe('回避原因：曾指导该团队');
    expect(within(four).queryByTestId('sheet-return')).toBeNull();
  });

  it('决赛成绩查询 without the buttons: the final round\'s data, no export, no return, no re-review; details at the final path', async () => {
    const get = mockGet(operator(['final'], []), {
      '/admin/review/final/scores': scoreList([scoreRow(1)], 'FINAL'),
      '/admin/review/final/groups': overview([groupView(1)], { round: 'FINAL' }),
      [`/admin/review/final/scores/${ID(1)}`]: detail({ round: 'FINAL', criteria: DEFAULT_RUBRICS.FINAL }),
    });
    const { router } = renderRoute('/admin/grade/gradeManage-admin-grade');
    const row = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(screen.getByRole('heading', { name: '决赛成绩查询' })).toBeTruthy();
    // Criterion means are offered in 列设置 (hidden at first on a 1440 px list).
    fireEvent.click(screen.getByTestId('kit-columns'));
    expect(within(await screen.findByTestId('kit-column-picker')).getByLabelText('现场答辩（20）均分')).toBeTruthy();
    expect(screen.queryByTestId('kit-export')).toBeNull();
    fireEvent.click(within(row).getByRole('link', { name: '医保智能审核1号' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/grade-admin-detail/${ID(1)}`));
    const view = await screen.findByTestId('score-detail-page', {}, SLOW);
    expect(within(view).getByText('E0001')).toBeTruthy();
    expect(within(view).queryByTestId('sheet-return')).toBeNull();
    expect(within(view).queryByTestId('rereview-open')).toBeNull();
    expect(callsTo(get, '/admin/review/prelim/scores')).toHaveLength(0);
  });

  it('speaks English with ?lang=en: titles, the rule sentence, tags', async () => {
    mockGet(superAdmin(), {
      '/admin/review/prelim/scores': scoreList([scoreRow(1, { divergent: true }), scoreRow(2, { rank: 1, decidedBy: 'EQUAL' })]),
      '/admin/review/prelim/groups': overview([groupView(1)]),
    });
    renderRoute('/admin/grade/gradeManage-grade', { search: '?lang=en' });
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(screen.getByRole('heading', { name: 'Preliminary scores' })).toBeTruthy();
    expect(within(first).getByTestId('divergent-tag').textContent).toBe('Divergent');
    expect(within(screen.getByText('医保智能审核2号').closest('tr')!).getByTestId('decided-by').textContent).toBe('Tied');
    expect(screen.getByTestId('scores-rule').textContent).toContain('Ranking: by Trimmed mean (highest and lowest dropped)');
    // Criterion means are offered in 列设置 (hidden at first on a 1440 px list).
    fireEvent.click(screen.getByTestId('kit-columns'));
    expect(within(await screen.findByTestId('kit-column-picker')).getByLabelText('Innovation (25) mean')).toBeTruthy();
  });
});
