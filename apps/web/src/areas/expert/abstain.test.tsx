/** 回避 on the scoring page and 申报回避单位 (docs/rules/review.md, "Abstaining", "Conflicts of interest"), with mocked answers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_RUBRICS,
  EXPERT_DECLARED_MAX,
  EXPERT_MENUS,
  REVIEW_MSG,
  type ExpertOrganisations,
  type ExpertOverview,
  type ExpertProjectDetail,
  type SheetView,
} from '@contest/shared';
import { api } from '../../lib/api';
import { ok, refused } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';
import { expert, menuTree } from '../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../lib/session';
import { ORGANISATIONS_MENU, withOrganisationsMenu } from './organisations-menu';
import { LIVE_MENU } from './live/use-live-menu';

const SLOW = { timeout: 20_000 };
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const DETAIL_URL = `/expert/review/prelim/${ID(1)}`;
const ABSTAIN_URL = `${DETAIL_URL}/abstain`;
const ORGS_URL = '/expert/organisations';
/** A valid unified social credit code (its check character matches). */
const CODE = '91110108MA01ABCD1E';

const sheetView = (over: Partial<SheetView> = {}): SheetView => ({
  id: 's1',
  status: 'DRAFT',
  scores: { innovation: 20 },
  comment: '',
  total: 20,
  version: 3,
  returnReason: null,
  submittedAt: null,
  updatedAt: '2025-07-02T02:00:00Z',
  ...over,
});

const detail = (over: Partial<ExpertProjectDetail> = {}): ExpertProjectDetail => ({
  id: ID(1),
  round: 'PRELIMINARY',
  projectName: '医保智能审核1号',
  track: 'SMART_SUPERVISION',
  summary: '基于大模型的医保基金智能审核',
  keywords: [],
  application: null,
  applicationChars: null,
  presentation: null,
  video: null,
  others: [],
  blind: true,
  download: 'none',
  team: null,
  criteria: DEFAULT_RUBRICS.PRELIMINARY,
  sheet: sheetView(),
  editable: true,
  open: true,
  prevId: null,
  nextId: ID(2),
  ...over,
});

const OVERVIEW: ExpertOverview = { agreed: true, rounds: [] };

const orgs = (declared = 1): ExpertOrganisations => ({
  organization: '第一医科大学',
  orgCreditCode: null,
  declaredOrgs: Array.from({ length: declared }, (_, i) => ({ name: `第${i + 2}人民医院`, creditCode: null })),
});

type Answer = unknown | (() => unknown);

function mockGet(info: () => StaffInfo, answers: Record<string, Answer>) {
  localStorage.setItem('ExpertToken', 'expert-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    if (url === '/admin/user/account') return ok(info());
    const types = (config?.params?.types as string[] | undefined) ?? [];
    if (url === '/dic/label' || url === '/dic/public') return ok(Object.fromEntries(types.map((t) => [t, url === '/dic/label' ? {} : []])));
    if (url === '/messages') return ok({ list: [], page: 1, size: 10, total: 0 });
    if (url === '/expert/live/sessions') return ok([]);
    if (url in answers) {
      const answer = typeof answers[url] === 'function' ? (answers[url] as () => unknown)() : answers[url];
      if (answer instanceof Error) throw answer;
      return ok(answer);
    }
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

/** A dialog gone, or on its way out (jsdom never ends antd's leave animation). */
const closing = (dialog: HTMLElement) =>
  !dialog.isConnected || dialog.closest('.ant-zoom-leave') !== null || dialog.querySelector('.ant-zoom-leave') !== null;

const openDialog = async () => {
  fireEvent.click(await screen.findByTestId('abstain-open', {}, SLOW));
  return screen.findByTestId('abstain-dialog', {}, SLOW);
};

describe('expert: abstaining', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('回避 asks for a reason and the acknowledgement, sends them with the version, then the sheet is read-only 已回避', async () => {
    const get = mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail() });
    const post = vi.spyOn(api, 'post').mockResolvedValue(
      ok(sheetView({ status: 'ABSTAINED', returnReason: '曾指导该团队', version: 4, updatedAt: '2025-07-03T02:00:00Z' }), REVIEW_MSG.sheetAbstained),
    );
    renderRoute(`/expert/review-detail/${ID(1)}`);

    const dialog = await openDialog();
    // Focus starts in the reason.
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByTestId('abstain-reason')), { timeout: 15_000 });
    expect(dialog.textContent).toContain('回避提交后不能撤销');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    expect(await within(dialog).findByText('请填写回避原因')).toBeTruthy();
    expect(await within(dialog).findByText('请确认已知晓回避后不能撤销')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByTestId('abstain-reason'), { target: { value: '  曾指导该团队  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    expect(await within(dialog).findByText('请确认已知晓回避后不能撤销')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.click(within(dialog).getByRole('checkbox', { name: '我已知晓回避后不能撤销' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(ABSTAIN_URL, { reason: '曾指导该团队', version: 3 }, { silent: true }));

    const sheet = await screen.findByTestId('abstained-sheet', {}, SLOW);
    expect(within(sheet).getByTestId('abstained-reason').textContent).toBe('曾指导该团队');
    expect(sheet.textContent).toContain('2025-07-03');
    expect(screen.queryByTestId('score-form')).toBeNull();
    expect(screen.queryByTestId('abstain-open')).toBeNull();
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('已回避');
    // Focus goes to the heading, which says the new state.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })), { timeout: 15_000 });
    // The project is no longer the expert's: it is not read again (it would answer 404).
    expect(callsTo(get, DETAIL_URL)).toHaveLength(1);
    expect(post).toHaveBeenCalledTimes(1);
  });

  it('a first abstention without a sheet sends no version; 取消 sends nothing', async () => {
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail({ sheet: null }) });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(sheetView({ status: 'ABSTAINED', returnReason: '同单位', version: 1 })));
    renderRoute(`/expert/review-detail/${ID(1)}`);
    const first = await openDialog();
    fireEvent.click(within(first).getByRole('button', { name: '取消' }));
    await waitFor(() => expect(closing(first)).toBe(true));
    expect(post).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('abstain-open'));
    const dialog = await waitFor(() => {
      const open = screen.getAllByTestId('abstain-dialog').find((d) => !closing(d));
      if (!open) throw new Error('the dialog is not open again');
      return open;
    });
    fireEvent.change(within(dialog).getByTestId('abstain-reason'), { target: { value: '同单位' } });
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(ABSTAIN_URL, { reason: '同单位' }, { silent: true }));
    expect(await screen.findByTestId('abstained-sheet', {}, SLOW)).toBeTruthy();
  });

  it('a refusal is shown in the dialog; a sheet submitted meanwhile reloads the page instead', async () => {
    const get = mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail() });
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(REVIEW_MSG.reasonTooLong))
      .mockRejectedValueOnce(refused(REVIEW_MSG.sheetNotAbstainable, { reason: 'NOT_ALLOWED' }));
    renderRoute(`/expert/review-detail/${ID(1)}`);
    const dialog = await openDialog();
    fireEvent.change(within(dialog).getByTestId('abstain-reason'), { target: { value: '理由' } });
    fireEvent.click(within(dialog).getByRole('checkbox'));
    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    expect((await within(dialog).findByTestId('abstain-error', {}, SLOW)).textContent).toContain(REVIEW_MSG.reasonTooLong);
    expect(screen.queryByTestId('abstained-sheet')).toBeNull();

    fireEvent.click(within(dialog).getByRole('button', { name: '确认回避' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(await screen.findByText(REVIEW_MSG.sheetNotAbstainable, {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, DETAIL_URL)).toHaveLength(2));
    expect(screen.queryByTestId('abstained-sheet')).toBeNull();
  });

  it('no 回避 on a submitted sheet or outside the window', async () => {
    mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      [DETAIL_URL]: detail({ editable: false, sheet: sheetView({ status: 'SUBMITTED', submittedAt: '2025-07-03T02:00:00Z' }) }),
    });
    renderRoute(`/expert/review-detail/${ID(1)}`);
    expect(await screen.findByTestId('score-readonly', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('abstain-open')).toBeNull();
  });
});

describe('expert: declared organisations', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('the menu entry comes after the review entries (before 现场答辩), once the agreement is accepted', () => {
    const info = expert({ menus: [...menuTree(EXPERT_MENUS), LIVE_MENU] });
    const withEntry = withOrganisationsMenu(info, true);
    expect(withEntry.menus.map((m) => m.code)).toEqual(['expertIndex', 'reviewManage', 'reviewAdminManage', 'expertOrganisations', 'expertLive']);
    expect(withOrganisationsMenu(withEntry, true)).toBe(withEntry);
    expect(withOrganisationsMenu(withEntry, false).menus.map((m) => m.code)).not.toContain(ORGANISATIONS_MENU.code);
  });

  it('申报回避单位 from the menu: the own and declared organisations; a declaration is checked, sent, and the list follows the answer', async () => {
    let declared = orgs(1);
    const get = mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [ORGS_URL]: () => declared });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string, body: unknown) => {
      if (url !== ORGS_URL) throw new Error(`unexpected POST ${url}`);
      const { name, creditCode } = body as { name: string; creditCode?: string };
      declared = { ...declared, declaredOrgs: [...declared.declaredOrgs, { name, creditCode: creditCode ?? null }] };
      return ok(declared, REVIEW_MSG.expertOrgDeclared);
    });
    const { router } = renderRoute('/expert/index');
    const menu = await screen.findByTestId('console-menu', {}, SLOW);
    fireEvent.click(await within(menu).findByText('申报回避单位', {}, SLOW));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/organisations'));
    await waitFor(() => expect(within(menu).getByText('申报回避单位').closest('li')?.className).toContain('ant-menu-item-selected'));

    const pageEl = await screen.findByTestId('orgs-page', {}, SLOW);
    expect(screen.getByRole('heading', { level: 1, name: '申报回避单位' })).toBeTruthy();
    expect(pageEl.textContent).toContain('来自这些单位的项目不会分配给您评审');
    expect(within(pageEl).getByTestId('orgs-own').textContent).toBe('第一医科大学');
    expect(within(pageEl).getAllByTestId('orgs-item').map((li) => li.textContent)).toEqual([expect.stringContaining('第2人民医院')]);

    const form = within(pageEl).getByTestId('orgs-form');
    fireEvent.click(within(form).getByTestId('orgs-submit'));
    expect(await within(form).findByText('请输入单位名称')).toBeTruthy();
    fireEvent.change(within(form).getByTestId('orgs-name'), { target: { value: '  合作科技有限公司 ' } });
    fireEvent.change(within(form).getByTestId('orgs-code'), { target: { value: '91110108MA01ABCD1X' } });
    fireEvent.click(within(form).getByTestId('orgs-submit'));
    expect(await within(form).findByText('统一社会信用代码校验不通过，请检查')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(form).getByTestId('orgs-code'), { target: { value: CODE.toLowerCase() } });
    fireEvent.click(within(form).getByTestId('orgs-submit'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(ORGS_URL, { name: '合作科技有限公司', creditCode: CODE }, { silent: true }));
    await waitFor(() => expect(within(pageEl).getAllByTestId('orgs-item')).toHaveLength(2));
    expect(within(pageEl).getAllByTestId('orgs-item')[1]!.textContent).toContain(CODE);
    expect(await screen.findByText('已申报回避单位，相关项目已不在您的评审列表中', {}, SLOW)).toBeTruthy();
    expect((within(form).getByTestId('orgs-name') as HTMLInputElement).value).toBe('');
    // The answer is the list: not read again.
    expect(callsTo(get, ORGS_URL)).toHaveLength(1);
  });

  it('a refusal shows in the form; at the limit the form gives way to a note; no entry before the agreement', async () => {
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [ORGS_URL]: orgs(1) });
    vi.spyOn(api, 'post').mockRejectedValue(refused(REVIEW_MSG.expertOrgDeclaredAlready, { field: 'name' }));
    const first = renderRoute('/expert/organisations');
    const form = await screen.findByTestId('orgs-form', {}, SLOW);
    fireEvent.change(within(form).getByTestId('orgs-name'), { target: { value: '第2人民医院' } });
    fireEvent.click(within(form).getByTestId('orgs-submit'));
    expect((await within(form).findByTestId('orgs-add-error', {}, SLOW)).textContent).toContain(REVIEW_MSG.expertOrgDeclaredAlready);
    expect(within(screen.getByTestId('orgs-page')).getAllByTestId('orgs-item')).toHaveLength(1);
    first.unmount();
    vi.restoreAllMocks();

    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [ORGS_URL]: orgs(EXPERT_DECLARED_MAX) });
    const second = renderRoute('/expert/organisations');
    expect(await screen.findByTestId('orgs-full', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('orgs-form')).toBeNull();
    second.unmount();
    vi.restoreAllMocks();

    const get = mockGet(() => expert({ agree: false, menus: menuTree(EXPERT_MENUS.filter((m) => m.code !== 'reviewAdminManage')) }), {
      '/expert/review/overview': { agreed: false, rounds: [] },
    });
    renderRoute('/expert/index');
    const menu = await screen.findByTestId('console-menu', {}, SLOW);
    expect(await screen.findByTestId('review-agreement', {}, SLOW)).toBeTruthy();
    expect(within(menu).queryByText('申报回避单位')).toBeNull();
    expect(callsTo(get, ORGS_URL)).toHaveLength(0);
  });
});
