/** 初赛评审分组 / 决赛评审分组 with mocked answers (packages/shared/src/review/api.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_RUBRICS, type AssignPreview, type RubricView } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, callsTo, closing, expertRow, groupView, mockGet, overview, page, projectRow } from './review-fixtures';

const GROUPS = '/admin/review/prelim/groups';
const PROJECTS = '/admin/review/prelim/projects';
const RUBRIC = '/admin/review/prelim/rubric';

const rubric = (over: Partial<RubricView> = {}): RubricView => ({
  round: 'PRELIMINARY',
  criteria: DEFAULT_RUBRICS.PRELIMINARY.map((c) => ({ ...c })),
  rule: { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] },
  locked: false,
  version: 1,
  ...over,
});

const preview = (token: string): AssignPreview => ({
  token,
  loads: [
    { groupId: ID(201), name: '第1评审组', before: 3, after: 4 },
    { groupId: ID(202), name: '第2评审组', before: 6, after: 6 },
  ],
  placements: [
    {
      projectId: ID(7),
      groupId: ID(201),
      expected: 5,
      conflicts: [],
      reason: '方向「智能监管与基金安全」由本组 5 名专家覆盖；本组当前负载最低（3 个项目）',
      projectName: '医保智能审核7号',
      track: 'SMART_SUPERVISION',
      groupName: '第1评审组',
    },
  ],
  problems: [
    { projectId: ID(8), code: 'TOO_FEW_EXPERTS', reason: '回避后最多只有 3 名专家（第2评审组），少于最低 5 名', projectName: '医保智能审核8号', track: 'SMART_SERVICE' },
  ],
  minExperts: 5,
});

/** Opens an antd select and clicks the option showing `text`. */
async function choose(select: HTMLElement, text: string) {
  fireEvent.mouseDown(select);
  const option = await screen.findByText(text, { selector: '.ant-select-item-option-content, .ant-select-item-option-content *' });
  fireEvent.click(option);
}

describe('review groups pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('评审组: figures and group cards; a new group is sent with its name and experts, those of another group not choosable', async () => {
    const get = mockGet(superAdmin(), {
      [GROUPS]: overview([groupView(1)]),
      '/admin/expert/list': page([
        expertRow(1, { groups: { PRELIMINARY: '第1评审组', FINAL: null } }),
        expertRow(2, { tracks: ['SMART_SERVICE'] }),
        expertRow(3, { groups: { PRELIMINARY: '第9评审组', FINAL: null } }),
      ]),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(groupView(2)));
    renderRoute('/admin/grade/review-group');
    const card = await screen.findByTestId('group-card', {}, SLOW);
    expect(card.textContent).toContain('第1评审组');
    expect(card.textContent).toContain('E0001');
    expect(card.textContent).toContain('第1医科大学');
    expect(card.textContent).toContain('项目 3 个');
    await waitFor(() => expect(card.textContent).toContain('智能监管与基金安全'));
    const figures = screen.getByTestId('groups-figures').textContent!;
    expect(figures).toContain('本轮项目12');
    expect(figures).toContain('未分组项目3');
    expect(figures).toContain('每个项目最少专家数5');

    fireEvent.click(screen.getByTestId('group-create'));
    const dialog = await screen.findByTestId('group-dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请输入评审组名称')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('评审组名称'), { target: { value: ' 第二组 ' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    await waitFor(() => expect(screen.getAllByTestId('expert-option')).toHaveLength(3));
    const busy = screen.getAllByTestId('expert-option')[2]!;
    expect(busy.textContent).toContain('已在「第9评审组」');
    expect(busy.closest('.ant-select-item-option')!.className).toContain('disabled');
    expect(screen.getAllByTestId('expert-option')[1]!.textContent).toContain('智慧医保服务');
    fireEvent.click(screen.getAllByTestId('expert-option')[1]!);
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(GROUPS, { name: '第二组', expertIds: [ID(102)] }, { silent: true }));
    await waitFor(() => expect(closing(dialog)).toBe(true));
    // The groups are read again after the change.
    await waitFor(() => expect(callsTo(get, GROUPS).length).toBeGreaterThan(1));
  });

  it('评审组: editing sends the version; deleting asks first; a group with scores cannot be deleted', async () => {
    mockGet(superAdmin(), {
      [GROUPS]: overview([groupView(1), groupView(2, { sheetCount: 4 })]),
      '/admin/expert/list': page([expertRow(1, { groups: { PRELIMINARY: '第1评审组', FINAL: null } })]),
    });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(groupView(1)));
    const del = vi.spyOn(api, 'delete').mockResolvedValue(ok(null));
    renderRoute('/admin/grade/review-group');
    const [first, second] = await screen.findAllByTestId('group-card', {}, SLOW);
    expect((within(second!).getByTestId('group-delete') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(first!).getByTestId('group-edit'));
    const dialog = await screen.findByTestId('group-dialog');
    expect((within(dialog).getByLabelText('评审组名称') as HTMLInputElement).value).toBe('第1评审组');
    fireEvent.change(within(dialog).getByLabelText('评审组名称'), { target: { value: '甲组' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledWith(`${GROUPS}/${ID(201)}`, { name: '甲组', expertIds: [ID(101)], version: 1 }, { silent: true }));

    fireEvent.click(within(first!).getByTestId('group-delete'));
    const confirm = (await screen.findByText(/确定删除评审组「第1评审组」/)).closest<HTMLElement>('.ant-modal')!;
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith(`${GROUPS}/${ID(201)}`));
  });

  it('项目分组: group, reason, scores and conflicts per project; 调整分组 refused on a scored project; a move sends group and reason', async () => {
    const get = mockGet(superAdmin(), {
      [GROUPS]: overview([groupView(1), groupView(2)]),
      [PROJECTS]: page([
        projectRow(1, {
          conflicts: [
            {
              expertId: ID(109),
              expertCode: 'E0009',
              expertName: '专家9',
              cause: { kind: 'NAME', via: 'OWN', expertOrg: '第1人民医院', teamOrg: '第1人民医院', text: '单位名称相同（规范化后：第1人民医院）' },
            },
          ],
        }),
        projectRow(2, { hasSheets: true, source: 'MANUAL', reason: '人工平衡' }),
        projectRow(3, { groupId: null, groupName: null, source: null, reason: null, expected: 0, scoresIn: 0 }),
      ]),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null));
    renderRoute('/admin/grade/review-group?tab=projects&groupId=none');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(callsTo(get, PROJECTS)[0]![1]).toEqual({ params: { groupId: 'none', page: 1, size: 10 } });
    expect(first.textContent).toContain('第1评审组');
    expect(first.textContent).toContain('自动分配');
    expect(first.textContent).toContain('本组当前负载最低');
    expect(first.textContent).toContain('1 / 4');
    const tag = within(first).getByTestId('conflict-tag');
    expect(tag.textContent).toBe('回避 1 人');
    fireEvent.click(tag);
    const list = await screen.findByTestId('conflict-list');
    expect(list.textContent).toContain('E0009 专家9');
    expect(list.textContent).toContain('单位名称相同（规范化后：第1人民医院）');

    const second = screen.getByText('医保智能审核2号').closest('tr')!;
    expect(second.textContent).toContain('手动调整');
    expect((within(second).getByTestId('project-move') as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('医保智能审核3号').closest('tr')!.textContent).toContain('未分组');

    fireEvent.click(within(first).getByTestId('project-move'));
    const dialog = await screen.findByTestId('review-reason-dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请选择要调整到的评审组')).toBeTruthy();
    await choose(within(dialog).getByRole('combobox'), '第2评审组');
    fireEvent.change(within(dialog).getByLabelText('调整理由'), { target: { value: '平衡负载' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`${PROJECTS}/${ID(1)}/move`, { groupId: ID(202), reason: '平衡负载' }, { silent: true }),
    );
    expect(await screen.findByText('项目分组已调整')).toBeTruthy();
  });

  it('自动分配: loads, placements and problems in red; a STALE apply offers a new preview, whose token is applied', async () => {
    mockGet(superAdmin(), { [GROUPS]: overview([groupView(1), groupView(2)]) });
    let previews = 0;
    let applies = 0;
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url.endsWith('/assign/preview')) return ok(preview(`tok${++previews}`));
      if (url.endsWith('/assign/apply')) {
        applies += 1;
        if (applies === 1) throw refused('分组数据已变化，请重新预览', { reason: 'STALE' });
        return ok({ assigned: 1, problems: [] });
      }
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute('/admin/grade/review-group');
    await screen.findAllByTestId('group-card', {}, SLOW);
    fireEvent.click(screen.getByTestId('assign-open'));
    const dialog = await screen.findByTestId('assign-dialog');
    const result = await within(dialog).findByTestId('assign-preview');
    expect(post).toHaveBeenCalledWith('/admin/review/prelim/assign/preview', {}, { silent: true });
    expect(result.textContent).toContain('将为 1 个项目分配评审组；1 个项目无法分配');
    const loads = within(dialog).getByTestId('assign-loads');
    expect(loads.textContent).toContain('第1评审组');
    expect(loads.textContent).toContain('+1');
    expect(within(dialog).getByTestId('assign-placements').textContent).toContain('本组当前负载最低');
    const problems = within(dialog).getByTestId('assign-problems');
    expect(problems.textContent).toContain('医保智能审核8号');
    expect(within(problems).getByText(/少于最低 5 名/).className).toContain('danger');
    // Too few experts: the preview says which setting asks for 5 and leads to it.
    expect(within(dialog).getByTestId('assign-min-experts').textContent).toContain('每个项目至少需要 5 位评审专家');
    expect(within(dialog).getByTestId('assign-settings-link').getAttribute('href')).toBe('/admin/system/settings');

    fireEvent.click(within(dialog).getByTestId('assign-apply'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/review/prelim/assign/apply', { token: 'tok1' }, { silent: true }));
    expect((await within(dialog).findByTestId('assign-stale')).textContent).toContain('分组数据已变化');
    expect((within(dialog).getByTestId('assign-apply') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(dialog).getByTestId('assign-stale-repreview'));
    await waitFor(() => expect(within(dialog).queryByTestId('assign-stale')).toBeNull());
    await within(dialog).findByTestId('assign-preview');
    expect(previews).toBe(2);
    fireEvent.click(within(dialog).getByTestId('assign-apply'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/admin/review/prelim/assign/apply', { token: 'tok2' }, { silent: true }));
    expect(await screen.findByText('自动分配已完成，已分配 1 个项目')).toBeTruthy();
    await waitFor(() => expect(closing(dialog)).toBe(true));
  });

  it('评分细则: the sum follows the maxima as typed; saving sends the criteria and the rule in the chosen order', async () => {
    mockGet(superAdmin(), { [GROUPS]: overview([groupView(1)]), [RUBRIC]: rubric() });
    const put = vi.spyOn(api, 'put').mockImplementation(async (_url: string, body: unknown) => ok({ ...rubric(), ...(body as object), version: 2 }));
    renderRoute('/admin/grade/review-group?tab=rubric');
    const card = await screen.findByTestId('rubric-card', {}, SLOW);
    const sum = await within(card).findByTestId('rubric-sum');
    expect(sum.textContent).toBe('各项满分合计 100 / 100');
    const rows = within(card).getAllByTestId('criterion-row');
    expect(rows).toHaveLength(4);
    const firstMax = within(rows[0]!).getByLabelText('满分');
    fireEvent.change(firstMax, { target: { value: '30' } });
    await waitFor(() => expect(sum.textContent).toBe('各项满分合计 105 / 100'));
    expect((within(card).getByTestId('rubric-save') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(rows[3]!).getByLabelText('满分'), { target: { value: '15' } });
    await waitFor(() => expect(sum.textContent).toBe('各项满分合计 100 / 100'));
    // The English of a criterion is edited beside its Chinese.
    expect((within(rows[1]!).getByLabelText('英文名称') as HTMLInputElement).value).toBe('Feasibility');
    fireEvent.change(within(rows[3]!).getByLabelText('英文名称'), { target: { value: ' Fullness ' } });

    // 可行性 first, then the tie-break chain with 原始平均分 moved up once.
    fireEvent.click(within(card).getByRole('button', { name: '上移「可行性」' }));
    fireEvent.click(within(card).getByRole('button', { name: '上移「原始平均分」' }));
    fireEvent.click(within(card).getByTestId('rubric-save'));
    await waitFor(() => expect(put).toHaveBeenCalled());
    const [url, body, config] = put.mock.calls[0]!;
    expect(url).toBe(RUBRIC);
    expect(config).toEqual({ silent: true });
    expect(body).toEqual({
      criteria: [
        { ...DEFAULT_RUBRICS.PRELIMINARY[1]!, max: 25 },
        { ...DEFAULT_RUBRICS.PRELIMINARY[0]!, max: 30 },
        { ...DEFAULT_RUBRICS.PRELIMINARY[2]!, max: 30 },
        { ...DEFAULT_RUBRICS.PRELIMINARY[3]!, max: 15, nameEn: 'Fullness' },
      ],
      rule: { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'RAW_MEAN', 'CRITERIA'] },
    });
    expect(await screen.findByText('评分细则已保存')).toBeTruthy();
  });

  it('评分细则: a locked rubric is read only, with why', async () => {
    mockGet(superAdmin(), { [GROUPS]: overview([groupView(1)]), [RUBRIC]: rubric({ locked: true }) });
    renderRoute('/admin/grade/review-group?tab=rubric');
    const card = await screen.findByTestId('rubric-card', {}, SLOW);
    expect(within(card).getByTestId('rubric-locked').textContent).toContain('评分细则和评分规则不能再修改');
    expect(within(card).queryByTestId('rubric-save')).toBeNull();
    expect(within(card).queryByRole('spinbutton')).toBeNull();
    expect(card.textContent).toContain('应用价值');
    expect(within(card).getByTestId('rule-text').textContent).toContain('按「去掉最高最低分后平均」排名');
  });

  it('评分细则 in English: the criteria read in English where they have it, in Chinese where not', async () => {
    const criteria = DEFAULT_RUBRICS.PRELIMINARY.map((c, i) => (i === 3 ? { ...c, nameEn: '', descriptionEn: '' } : { ...c }));
    mockGet(superAdmin(), { [GROUPS]: overview([groupView(1)]), [RUBRIC]: rubric({ locked: true, criteria }) });
    renderRoute('/admin/grade/review-group?tab=rubric', { search: '?lang=en' });
    const card = await screen.findByTestId('rubric-card', {}, SLOW);
    await waitFor(() => expect(card.textContent).toContain('Practical value'));
    expect(card.textContent).toContain('Whether the technical route');
    expect(card.textContent).not.toContain('应用价值');
    expect(card.textContent).toContain('完整性');
  });

  it('决赛评审分组 without the edit button: the final round\'s data, and no create, edit, delete, assign, move or save', async () => {
    const get = mockGet(operator(['final'], []), {
      '/admin/review/final/groups': overview([groupView(1)], { round: 'FINAL' }),
      '/admin/review/final/projects': page([projectRow(1)]),
      '/admin/review/final/rubric': rubric({ round: 'FINAL', criteria: DEFAULT_RUBRICS.FINAL }),
    });
    const { router } = renderRoute('/admin/grade/review-admin-group');
    const card = await screen.findByTestId('group-card', {}, SLOW);
    expect(screen.getByRole('heading', { name: '决赛评审分组' })).toBeTruthy();
    expect(within(card).queryByTestId('group-edit')).toBeNull();
    expect(within(card).queryByTestId('group-delete')).toBeNull();
    expect(screen.queryByTestId('group-create')).toBeNull();
    expect(screen.queryByTestId('assign-open')).toBeNull();

    void router.navigate('/admin/grade/review-admin-group?tab=projects');
    const row = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(within(row).queryByTestId('project-move')).toBeNull();

    void router.navigate('/admin/grade/review-admin-group?tab=rubric');
    const rubricCard = await screen.findByTestId('rubric-card', {}, SLOW);
    await waitFor(() => expect(rubricCard.textContent).toContain('现场答辩'));
    expect(within(rubricCard).queryByTestId('rubric-save')).toBeNull();
    expect(callsTo(get, '/admin/review/prelim/groups')).toHaveLength(0);
  });
});
