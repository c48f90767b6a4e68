/** 评分监控's abstentions and replacements (MonitorAbstentions.tsx; docs/rules/review.md, "Abstaining"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { REVIEW_MSG, type MonitorProjectRow, type ScoreDetail } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, groupView, mockGet, overview, page } from './review-fixtures';
import { REPLACEMENT_REASON } from './MonitorAbstentions';

const PROJECTS = '/admin/review/prelim/monitor/projects';
const PATH = '/admin/grade/scoringMonitoringExpert?tab=projects';

const project = (n: number, over: Partial<MonitorProjectRow> = {}): MonitorProjectRow => ({
  id: ID(n),
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  groupName: '第1评审组',
  scoresIn: 3,
  expected: 4,
  drafts: 0,
  spread: 8.5,
  divergent: false,
  abstained: 0,
  needsScorer: false,
  replacements: [],
  ...over,
});

const needing = project(1, {
  // Every expected score is in, yet a scorer is missing: the count still warns.
  scoresIn: 4,
  abstained: 1,
  needsScorer: true,
  replacements: [
    { expertId: ID(201), code: 'E0021', name: '王替补', groupName: '第2评审组', projects: 3 },
    { expertId: ID(202), code: 'E0022', name: '李替补', groupName: '第3评审组', projects: 5 },
  ],
});
const madeUp = project(2, { abstained: 1, needsScorer: false });
const plain = project(3);

const scoreDetail = {
  round: 'PRELIMINARY',
  project: { id: ID(1), projectName: '医保智能审核1号', teamName: '', orgName: '', track: null, groupId: null, groupName: null },
  experts: [
    { expertId: ID(101), expertCode: 'E0001', expertName: '专家1', extra: false, sheet: null },
    {
      expertId: ID(102),
      expertCode: 'E0002',
      expertName: '专家2',
      extra: false,
      sheet: { id: 's2', status: 'ABSTAINED', returnReason: '曾指导该团队', scores: {}, comment: '', total: 0, version: 2, submittedAt: null, updatedAt: '2025-07-02T02:00:00Z', dropped: false, revisions: [] },
    },
  ],
  conflicts: [],
  history: [],
} as unknown as ScoreDetail;

const answers = () => ({
  '/admin/review/prelim/monitor/experts': page([]),
  [PROJECTS]: page([needing, madeUp, plain]),
  '/admin/review/prelim/groups': overview([groupView(1)]),
  [`/admin/review/prelim/scores/${ID(1)}`]: scoreDetail,
  [`/admin/review/prelim/scores/${ID(2)}`]: scoreDetail,
});

const rowOf = async (name: string) => (await screen.findByText(name, {}, SLOW)).closest('tr')!;

describe('scoring monitor: abstentions', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('a row shows its abstentions with the reasons on focus, 待补充专家 and 已补充; nothing on a row without', async () => {
    const get = mockGet(superAdmin(), answers());
    renderRoute(PATH);
    const first = await rowOf('医保智能审核1号');
    const count = within(first).getByTestId('abstained-count');
    expect(count.textContent).toBe('已回避 1 人');
    expect(within(first).getByTestId('needs-scorer').textContent).toBe('待补充专家');
    expect(within(first).getByText('4 / 4').className).toContain('ant-typography-warning');
    // Focus (the keyboard's hover) opens who abstained and why, read from the score detail.
    act(() => count.focus());
    const reasons = await screen.findByTestId('abstain-reasons', {}, SLOW);
    expect(reasons.textContent).toContain('专家2（E0002）');
    expect(reasons.textContent).toContain('回避原因：曾指导该团队');
    expect(reasons.textContent).not.toContain('专家1');
    expect(callsTo(get, `/admin/review/prelim/scores/${ID(1)}`)).toHaveLength(1);

    const second = await rowOf('医保智能审核2号');
    expect(within(second).getByTestId('replacement-done').textContent).toBe('已补充');
    expect(within(second).queryByTestId('add-replacement')).toBeNull();
    const third = await rowOf('医保智能审核3号');
    expect(within(third).queryByTestId('abstained-count')).toBeNull();
    expect(within(third).queryByTestId('replacements')).toBeNull();
  });

  it('one click adds a suggested expert through re-review (ADD_EXPERTS), then the rows are read again', async () => {
    const get = mockGet(superAdmin(), answers());
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok({ added: 1, returned: 0 }));
    renderRoute(PATH);
    const first = await rowOf('医保智能审核1号');
    const buttons = within(first).getAllByTestId('add-replacement');
    expect(buttons.map((b) => b.textContent)).toEqual(['王替补', '李替补']);
    expect(buttons[0]!.getAttribute('aria-label')).toBe('添加 王替补（E0021，第2评审组，在评 3 个项目） 为评审专家');
    const before = callsTo(get, PROJECTS).length;
    fireEvent.click(buttons[0]!);
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        `/admin/review/prelim/projects/${ID(1)}/rereview`,
        { mode: 'ADD_EXPERTS', expertIds: [ID(201)], reason: REPLACEMENT_REASON },
        { silent: true },
      ),
    );
    expect(post).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('已添加 王替补 评审「医保智能审核1号」', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, PROJECTS).length).toBeGreaterThan(before));
  });

  it('a refused addition is told in the page\'s words; without the score-return button the names only', async () => {
    mockGet(superAdmin(), answers());
    vi.spyOn(api, 'post').mockRejectedValue(refused(REVIEW_MSG.rereviewExpertAbstained, { field: 'expertIds' }));
    const first = renderRoute(PATH);
    const row = await rowOf('医保智能审核1号');
    fireEvent.click(within(row).getAllByTestId('add-replacement')[1]!);
    expect(await screen.findByText(REVIEW_MSG.rereviewExpertAbstained, {}, SLOW)).toBeTruthy();
    first.unmount();
    vi.restoreAllMocks();

    mockGet(superAdmin({ buttons: [] }), answers());
    renderRoute(PATH);
    const again = await rowOf('医保智能审核1号');
    expect(within(again).queryByTestId('add-replacement')).toBeNull();
    expect(within(again).getByTestId('replacements').textContent).toContain('王替补');
    expect(within(again).getByTestId('replacements').textContent).toContain('李替补');
  });

  it('评审质量 opens the round\'s judging-quality page', async () => {
    mockGet(superAdmin(), {
      ...answers(),
      '/admin/review/prelim/calibration': { round: 'PRELIMINARY', rule: { aggregate: 'MEAN', minScoresForTrim: 5, tieBreak: [] }, leniencyFactor: 1.5, panel: { leniencyMean: null, leniencySd: null, experts: 0 }, experts: [] },
      '/admin/review/prelim/normalisation': { round: 'PRELIMINARY', declared: 'MEAN', alternatives: [], topN: 10, perTrack: false, moves: [] },
      '/admin/review/prelim/cut-confidence': null,
    });
    const { router } = renderRoute(PATH);
    fireEvent.click(await screen.findByTestId('monitor-quality', {}, SLOW));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/grade/judging-quality'));
    expect(await screen.findByRole('heading', { name: '初赛评审质量' }, SLOW)).toBeTruthy();
  });
});
