/** 评审质量, both rounds, with mocked answers (packages/shared/src/review/judging-quality-api.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { CalibrationRow, CalibrationView, CutConfidenceProjectView, CutConfidenceRunView, NormalisationView, PromotionPreview, ScoreDetail } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, mockGet, page } from '../review/review-fixtures';

import zhReview from '../../../i18n/locales/zh-cn/review.json';

const ZH_AGG = zhReview.aggregates;
const PATH = '/admin/grade/judging-quality';
const CAL = '/admin/review/prelim/calibration';
const NORM = '/admin/review/prelim/normalisation';
const CUT = '/admin/review/prelim/cut-confidence';
const RULE = { aggregate: 'TRIMMED_MEAN' as const, minScoresForTrim: 5, tieBreak: ['RULE_SCORE' as const] };

const expertRow = (n: number, over: Partial<CalibrationRow> = {}): CalibrationRow => ({
  expertId: ID(100 + n),
  code: `E000${n}`,
  name: `专家${n}`,
  organization: `第${n}医科大学`,
  scored: 12,
  sharedProjects: 10,
  meanTotal: 80,
  leniency: 0.2,
  spread: 6.4,
  agreement: 0.81,
  flags: [],
  ...over,
});

const calibration = (experts: CalibrationRow[] = [
  expertRow(1, { leniency: 6.44, flags: ['LENIENT'] }),
  expertRow(2, { leniency: -5.06, agreement: -0.333, flags: ['HARSH', 'DISAGREES'] }),
  expertRow(3, { leniency: 0.04 }),
  expertRow(4, { leniency: -1.42 }),
]): CalibrationView => ({
  round: 'PRELIMINARY',
  rule: RULE,
  leniencyFactor: 1.5,
  panel: { leniencyMean: 0, leniencySd: 3.21, experts: experts.length },
  experts,
});

const normalisation = (perTrack = false): NormalisationView => ({
  round: 'PRELIMINARY',
  declared: 'TRIMMED_MEAN',
  alternatives: ['ZSCORE', 'MEAN', 'MEDIAN'],
  topN: 10,
  perTrack,
  moves: [
    {
      projectId: ID(1),
      projectCode: 'P0001',
      projectName: '医保智能审核1号',
      track: 'SMART_SUPERVISION',
      under: [
        { aggregate: 'TRIMMED_MEAN', score: 81.5, rank: 10, trackRank: 4, inCut: true },
        { aggregate: 'ZSCORE', score: 79.1, rank: 12, trackRank: 5, inCut: false },
        { aggregate: 'MEAN', score: 80.2, rank: 11, trackRank: 5, inCut: false },
        { aggregate: 'MEDIAN', score: 82, rank: 9, trackRank: 4, inCut: true },
      ],
    },
  ],
});

const cutProject = (n: number, over: Partial<CutConfidenceProjectView> = {}): CutConfidenceProjectView => ({
  projectId: ID(n),
  projectCode: `P000${n}`,
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  count: 5,
  pOverall: 0.97,
  pTrack: 0.99,
  rankLow: n,
  rankHigh: n + 2,
  onCutOverall: false,
  onCutTrack: false,
  ...over,
});

const run = (over: Partial<CutConfidenceRunView> = {}): CutConfidenceRunView => ({
  id: 'run-1',
  round: 'PRELIMINARY',
  status: 'DONE',
  topN: 10,
  perTrack: false,
  seed: 12345,
  rounds: 2000,
  aggregate: 'TRIMMED_MEAN',
  stale: false,
  startedAt: '2025-07-10T02:00:00Z',
  finishedAt: '2025-07-10T02:00:05Z',
  startedBy: '运营一号',
  error: null,
  projects: [cutProject(1), cutProject(2, { pOverall: 0.4723, rankLow: 6, rankHigh: 14, onCutOverall: true })],
  ...over,
});

const answers = (over: Record<string, unknown> = {}) => ({
  [CAL]: calibration(),
  [NORM]: (params: Record<string, unknown> | undefined) => normalisation(params?.perTrack === 'true'),
  [CUT]: run(),
  ...over,
});

describe('judging quality', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('opens from 初赛成绩查询 (评审质量 button)', async () => {
    mockGet(superAdmin(), {
      ...answers(),
      '/admin/review/prelim/scores': { round: 'PRELIMINARY', rule: RULE, criteria: [], divergenceThreshold: 20, roundMean: null, roundSd: null, list: [], page: 1, size: 10, total: 0 },
      '/admin/review/prelim/groups': { round: 'PRELIMINARY', groups: [], eligible: 0, unassigned: 0, minExperts: 5 },
    });
    const { router } = renderRoute('/admin/grade/gradeManage-grade');
    fireEvent.click(await screen.findByTestId('scores-quality', {}, SLOW));
    await waitFor(() => expect(router.state.location.pathname).toBe(PATH));
    expect(await screen.findByRole('heading', { name: '初赛评审质量' }, SLOW)).toBeTruthy();
  });

  it('calibration: panel figures, signed leniency, agreement, flags as text tags, the chart with its band; export and a private note', async () => {
    mockGet(superAdmin(), answers());
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === `${CAL}/note`) return ok(null);
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(PATH);
    const table = await screen.findByTestId('calibration-table', {}, SLOW);
    expect(screen.getByTestId('panel-experts').textContent).toContain('4');
    expect(screen.getByTestId('panel-sd').textContent).toContain('3.21');
    expect(screen.getByTestId('panel-flagged').textContent).toContain('2');
    const row1 = within(table).getByText('专家1').closest('tr')!;
    const row2 = within(table).getByText('专家2').closest('tr')!;
    expect(within(row1).getByTestId('leniency').textContent).toBe('+6.4');
    expect(within(row1).getByTestId('flag-LENIENT').textContent).toBe('偏松');
    expect(within(row2).getByTestId('leniency').textContent).toBe('-5.1');
    expect(within(row2).getByTestId('agreement').textContent).toBe('-0.33');
    expect(within(row2).getByTestId('flag-HARSH').textContent).toBe('偏严');
    expect(within(row2).getByTestId('flag-DISAGREES').textContent).toBe('排序相反');
    const chart = screen.getByTestId('leniency-chart');
    expect(within(chart).getAllByTestId('leniency-bar')).toHaveLength(4);
    expect(chart.textContent).toContain('均值 ±1.5 倍标准差');
    expect(chart.querySelector('.quality-chart__bar--lenient')).not.toBeNull();
    expect(chart.querySelector('.quality-chart__bar--harsh')).not.toBeNull();
    expect(screen.getByTestId('calibration-export')).toBeTruthy();

    fireEvent.click(within(row2).getByTestId('note-open'));
    const dialog = await screen.findByTestId('note-dialog');
    expect(dialog.textContent).toContain('E0002 专家2');
    fireEvent.click(within(dialog).getByRole('button', { name: '发送' }));
    expect(await within(dialog).findByText('请填写说明')).toBeTruthy();
    expect(callsTo(post, `${CAL}/note`)).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText('说明'), { target: { value: '  请对照评分标准复核  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '发送' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`${CAL}/note`, { expertId: ID(102), text: '请对照评分标准复核' }, { silent: true }));
    expect(await screen.findByText('说明已发送给专家')).toBeTruthy();
  });

  it('empty round: no scores yet; no run yet', async () => {
    mockGet(superAdmin(), answers({ [CAL]: calibration([expertRow(1, { scored: 0, sharedProjects: 0, leniency: null, spread: null, agreement: null })]), [CUT]: null }));
    renderRoute(PATH);
    expect(await screen.findByTestId('calibration-empty', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('leniency-chart')).toBeNull();
    expect(await screen.findByTestId('normalisation-empty')).toBeTruthy();
    expect((await screen.findByTestId('cut-none')).textContent).toBe('还没有计算记录');
  });

  it('normalisation: the moving projects with score and rank under each rule, declared first; per track asks again', async () => {
    const get = mockGet(superAdmin(), answers());
    renderRoute(PATH);
    const table = await screen.findByTestId('normalisation-table', {}, SLOW);
    const headers = Array.from(table.querySelectorAll('th')).map((th) => th.textContent);
    expect(headers.slice(3)).toEqual(['去掉最高最低分后平均（本轮规则）', ZH_AGG.ZSCORE, ZH_AGG.MEAN, ZH_AGG.MEDIAN]);
    const row = within(table).getByText('医保智能审核1号').closest('tr')!;
    expect(row.textContent).toContain('81.50第 10 名 入围');
    expect(row.textContent).toContain('79.10第 12 名 未入围');
    expect(get).toHaveBeenCalledWith(NORM, { params: { topN: 10, perTrack: 'false' } });
    fireEvent.click(within(screen.getByTestId('normalisation-mode')).getByLabelText('各方向'));
    await waitFor(() => expect(get).toHaveBeenCalledWith(NORM, { params: { topN: 10, perTrack: 'true' } }));
    await waitFor(() => expect(within(screen.getByTestId('normalisation-table')).getByText('医保智能审核1号').closest('tr')!.textContent).toContain('第 4 名'));
  });

  it('confidence on the cut: the form posts, RUNNING polls until DONE, then probabilities, intervals and the on-the-cut tag', async () => {
    let state: CutConfidenceRunView | null = null;
    let reads = 0;
    mockGet(superAdmin(), answers({
      [CUT]: () => {
        reads += 1;
        // Done on the second read after the start.
        if (state?.status === 'RUNNING' && reads > 2) state = run({ seed: 7, perTrack: false, topN: 12 });
        return state;
      },
    }));
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === CUT) {
        state = run({ status: 'RUNNING', seed: 7, topN: 12, projects: [], finishedAt: null });
        reads = 1;
        return ok(state);
      }
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(PATH);
    expect(await screen.findByTestId('cut-none', {}, SLOW)).toBeTruthy();
    const form = screen.getByTestId('cut-form');
    fireEvent.click(within(form).getByTestId('cut-start'));
    expect(await within(form).findByText('请填写入围名额 N')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText('入围名额 N'), { target: { value: '12' } });
    fireEvent.change(within(form).getByLabelText('随机种子'), { target: { value: '7' } });
    fireEvent.click(within(form).getByTestId('cut-start'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(CUT, { topN: 12, perTrack: false, seed: 7, rounds: 2000 }, { silent: true }));
    expect((await screen.findByTestId('cut-running')).textContent).toContain('正在计算（2000 次抽样）');
    expect((screen.getByTestId('cut-start') as HTMLButtonElement).disabled).toBe(true);
    const table = await screen.findByTestId('cut-table', {}, { timeout: 10_000 });
    expect(screen.queryByTestId('cut-running')).toBeNull();
    expect(screen.getByTestId('cut-seed').textContent).toBe('7');
    const row2 = within(table).getByText('医保智能审核2号').closest('tr')!;
    expect(within(row2).getByTestId('cut-p').textContent).toBe('47%');
    expect(row2.textContent).toContain('6 – 14');
    expect(within(row2).getByTestId('on-cut-tag').textContent).toBe('临界');
    const row1 = within(table).getByText('医保智能审核1号').closest('tr')!;
    expect(within(row1).queryByTestId('on-cut-tag')).toBeNull();
    expect(screen.getByTestId('cut-summary').textContent).toBe('2 个项目中 1 个处于临界。');
  });

  it('a stale run warns to run again; a failed run shows its error; 复评加专家 opens the re-review dialog', async () => {
    mockGet(superAdmin(), answers({
      [CUT]: run({ stale: true }),
      [`/admin/review/prelim/scores/${ID(2)}`]: {
        project: { id: ID(2), projectName: '医保智能审核2号' },
        experts: [],
        conflicts: [],
      } as unknown as ScoreDetail,
      '/admin/expert/list': page([]),
    }));
    renderRoute(PATH);
    expect((await screen.findByTestId('cut-stale', {}, SLOW)).textContent).toContain('请重新计算');
    const row2 = within(screen.getByTestId('cut-table')).getByText('医保智能审核2号').closest('tr')!;
    fireEvent.click(within(row2).getByTestId('cut-rereview'));
    const dialog = await screen.findByTestId('rereview-dialog');
    expect(dialog.textContent).toContain('项目「医保智能审核2号」');
  });

  it('a failed run shows the error', async () => {
    mockGet(superAdmin(), answers({ [CUT]: run({ status: 'FAILED', error: 'interrupted', projects: [], finishedAt: null }) }));
    renderRoute(PATH);
    expect((await screen.findByTestId('cut-failed', {}, SLOW)).textContent).toContain('计算已中断，请重新开始');
    expect(screen.queryByTestId('cut-table')).toBeNull();
  });

  it('without the button codes: no export, no note, no run form, no re-review', async () => {
    mockGet(operator(['grade'], []), answers());
    renderRoute(PATH);
    expect(await screen.findByTestId('cut-table', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('calibration-table')).toBeTruthy();
    expect(screen.queryByTestId('calibration-export')).toBeNull();
    expect(screen.queryByTestId('note-open')).toBeNull();
    expect(screen.queryByTestId('cut-form')).toBeNull();
    expect(screen.queryByTestId('cut-rereview')).toBeNull();
  });

  it('with the button codes of the round (score export, remind, cut confidence, score return) they show', async () => {
    mockGet(operator(['grade'], ['score:export', 'monitor:remind', 'score:cut-confidence', 'score:return']), answers());
    renderRoute(PATH);
    expect(await screen.findByTestId('cut-form', {}, SLOW)).toBeTruthy();
    expect(await screen.findByTestId('calibration-export')).toBeTruthy();
    expect(screen.getAllByTestId('note-open').length).toBe(4);
    expect(screen.getAllByTestId('cut-rereview').length).toBe(2);
  });

  it('English', async () => {
    mockGet(superAdmin(), answers());
    renderRoute(PATH, { search: '?lang=en' });
    expect(await screen.findByRole('heading', { name: 'Preliminary judging quality' }, SLOW)).toBeTruthy();
    const table = await screen.findByTestId('calibration-table');
    expect(within(table).getByTestId('flag-LENIENT').textContent).toBe('Lenient');
    expect(within(table).getByTestId('flag-DISAGREES').textContent).toBe('Reversed order');
    expect((await screen.findByTestId('cut-table')).textContent).toContain('On the cut');
    expect(screen.getByRole('heading', { name: 'Confidence on the cut' })).toBeTruthy();
  });

  it('晋级决赛 preview shows P(in cut) and the on-the-cut tag when the server sends them', async () => {
    const row = (n: number, over: object = {}) => ({
      id: ID(n), projectName: `医保智能审核${n}号`, orgName: `第${n}人民医院`, track: 'SMART_SUPERVISION', rank: n, trackRank: n, ruleScore: 90 - n,
      decidedBy: null, inFinal: false, selected: n <= 2, pInCut: n === 2 ? 0.55 : 0.99, onCut: n === 2, ...over,
    });
    const preview: PromotionPreview = { token: 'p1', rule: RULE, reviewOpen: false, ranking: [row(1), row(2), row(3, { selected: false, pInCut: 0.05, onCut: false })], selectedCount: 2, atCutLine: [] };
    mockGet(superAdmin(), { '/admin/final/list': page([]), '/admin/final/promotions': [] });
    vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/final/promotion/preview') return ok(preview);
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    fireEvent.click(await screen.findByTestId('final-promote', {}, SLOW));
    const dialog = await screen.findByTestId('promotion-dialog');
    fireEvent.change(within(dialog).getByLabelText('晋级名额 N'), { target: { value: '2' } });
    const previewButton = within(dialog).getByTestId('promotion-preview') as HTMLButtonElement;
    await waitFor(() => expect(previewButton.disabled).toBe(false));
    fireEvent.click(previewButton);
    const result = await within(dialog).findByTestId('promotion-result');
    const r2 = within(result).getByText('医保智能审核2号').closest('tr')!;
    expect(within(r2).getByTestId('p-in-cut').textContent).toBe('55%');
    expect(within(r2).getByTestId('on-cut-tag').textContent).toBe('临界');
    expect(within(within(result).getByText('医保智能审核3号').closest('tr')!).getByTestId('p-in-cut').textContent).toBe('5%');
  });
});
