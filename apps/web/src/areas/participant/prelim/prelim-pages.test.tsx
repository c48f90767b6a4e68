import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONTEST_MSG, type PrelimDocStatus } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, participantInfo, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { mockGets, prelimBrief, prelimFixture } from '../team/contest-fixtures';
import { materialSubmissionLoader } from './prelim-loader';

vi.mock('./pdf-chars', () => ({
  usePdfChars: (uniqueNo: string | null) =>
    uniqueNo === null ? { isSuccess: false, isError: false } : { isSuccess: true, isError: false, data: 4321 },
}));

function explainOf(label: string): string {
  const item = screen.getByText(label).closest('.ant-form-item');
  return item?.querySelector('.ant-form-item-explain')?.textContent ?? '';
}

describe('/material-submission loader', () => {
  afterEach(() => vi.restoreAllMocks());

  it.each<[PrelimDocStatus | null, boolean]>([
    [null, true],
    ['NOT_FILLED', true],
    ['DRAFT', true],
    ['REVISING', true],
    ['SUBMITTED', false],
    ['APPROVED', false],
    ['REJECTED', false],
  ])('materials status %s -> form allowed: %s', async (status, allowed) => {
    vi.spyOn(api, 'get').mockResolvedValue(ok(prelimBrief(status)));
    const result = await materialSubmissionLoader();
    if (allowed) expect(result).toMatchObject({ prelimDocStatus: status });
    else expect((result as Response).headers.get('Location')).toBe('/material-submission/detail');
  });

  it('sends a 401 to /', async () => {
    vi.spyOn(api, 'get').mockRejectedValue(refused('请先登录', null, 401));
    expect(((await materialSubmissionLoader()) as Response).headers.get('Location')).toBe('/');
  });
});

describe('/material-submission form', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  it('explains why the form is closed to a team not yet approved', async () => {
    mockGets({ '/prelim-doc/my-brief': prelimBrief(null, 'SUBMITTED'), '/prelim-doc/my': null }, { ...participantInfo(), teamStatus: 'SUBMITTED' } as never);
    renderRoute('/material-submission');
    const closed = await screen.findByTestId('materials-closed');
    expect(closed.textContent).toContain('初赛材料提交尚未开放');
    expect(closed.textContent).toContain('「已提交」');
    expect(screen.queryByTestId('materials-form')).toBeNull();
  });

  it('shows the server count for the saved application and the returned reason', async () => {
    mockGets({
      '/prelim-doc/my-brief': prelimBrief('REVISING'),
      '/prelim-doc/my': prelimFixture('REVISING', { auditReason: '申报书缺少预算', maxApplicationChars: 20000 }),
    });
    renderRoute('/material-submission');
    await screen.findByTestId('materials-form');
    expect(screen.getByTestId('application-chars').textContent).toBe('申报书字数：1234 / 上限 20000');
    expect(screen.getByTestId('revising-reason').textContent).toContain('申报书缺少预算');
  });

  it('counts a new application in the browser until the server has counted it', async () => {
    mockGets({ '/prelim-doc/my-brief': prelimBrief('DRAFT'), '/prelim-doc/my': prelimFixture('DRAFT', { applicationChars: null }) });
    renderRoute('/material-submission');
    await screen.findByTestId('materials-form');
    expect(screen.getByTestId('application-chars').textContent).toContain('本地统计：4321 字');
  });

  it('refuses a submit without the required fields and saves a draft with the lenient rules', async () => {
    mockGets({
      '/prelim-doc/my-brief': prelimBrief('NOT_FILLED'),
      '/prelim-doc/my': prelimFixture('NOT_FILLED', { projectName: '', summary: '', keywords: [], application: null, presentation: null, applicationChars: null }),
    });
    const post = vi.spyOn(api, 'post');
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(prelimFixture('DRAFT')));
    renderRoute('/material-submission');
    await screen.findByTestId('materials-form');
    fireEvent.click(screen.getByTestId('submit'));
    await waitFor(() => {
      expect(explainOf('项目名称')).toBe(CONTEST_MSG.projectNameRequired);
      expect(explainOf('项目简介')).toBe(CONTEST_MSG.summaryRequired);
      expect(explainOf('关键词')).toBe(CONTEST_MSG.keywordsRequired);
      expect(explainOf('申报书（PDF）')).toBe(CONTEST_MSG.applicationRequired);
      expect(explainOf('演示文稿（PDF/PPT/PPTX）')).toBe(CONTEST_MSG.presentationRequired);
    });
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByPlaceholderText('请简要介绍项目，不超过 500 字'), { target: { value: '长'.repeat(501) } });
    await waitFor(() => expect(explainOf('项目简介')).toBe(CONTEST_MSG.summaryTooLong));
    fireEvent.click(screen.getByTestId('save-draft'));
    await new Promise((r) => setTimeout(r, 300));
    expect(put).not.toHaveBeenCalled();

    fireEvent.change(screen.getByPlaceholderText('请简要介绍项目，不超过 500 字'), { target: { value: '简介' } });
    fireEvent.change(screen.getByPlaceholderText('请输入项目名称'), { target: { value: '医保基金智能审核' } });
    fireEvent.click(screen.getByTestId('save-draft'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]![0]).toBe('/prelim-doc/my');
    expect(put.mock.calls[0]![1]).toMatchObject({ projectName: '医保基金智能审核', summary: '简介', track: 'SMART_SUPERVISION', application: null, others: [] });
    expect(await screen.findByText(CONTEST_MSG.draftSaved)).toBeTruthy();
  });

  it('submits after the confirm and opens the detail', async () => {
    mockGets({ '/prelim-doc/my-brief': prelimBrief('DRAFT'), '/prelim-doc/my': prelimFixture('DRAFT') });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(prelimFixture('SUBMITTED')));
    const { router } = renderRoute('/material-submission');
    await screen.findByTestId('materials-form');
    fireEvent.click(screen.getByTestId('submit'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: /确\s*认/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/material-submission/detail'));
    expect(post).toHaveBeenCalledWith(
      '/prelim-doc/my/submit',
      expect.objectContaining({ application: 'appl000000000000000001', presentation: 'pres000000000000000001', keywords: ['智能审核', '基金安全'] }),
      { silent: true },
    );
  });

  it('redirects a submitted team to the detail', async () => {
    mockGets({ '/prelim-doc/my-brief': prelimBrief('DRAFT'), '/prelim-doc/my': prelimFixture('SUBMITTED') });
    const { router } = renderRoute('/material-submission');
    await waitFor(() => expect(router.state.location.pathname).toBe('/material-submission/detail'));
  });
});

describe('/material-submission/detail', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  it('shows status, files, count and history, without edit once submitted', async () => {
    mockGets({
      '/prelim-doc/my': prelimFixture('SUBMITTED', {
        history: [
          { id: 'h1', fromStatus: 'NOT_FILLED', toStatus: 'DRAFT', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-07-01T02:00:00.000Z' },
          { id: 'h2', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-07-02T02:00:00.000Z' },
        ],
      }),
    });
    renderRoute('/material-submission/detail');
    const detail = await screen.findByTestId('materials-detail');
    expect(within(detail).getByTestId('contest-status').textContent).toBe('已提交');
    expect(within(detail).getByTestId('application-chars').textContent).toBe('申报书字数：1234');
    expect(within(detail).getByText('申报书.pdf')).toBeTruthy();
    expect(within(detail).getByText('演示.pptx')).toBeTruthy();
    expect(within(detail).getByText('基金安全')).toBeTruthy();
    expect(within(detail).getByTestId('status-history').textContent).toContain('demo1：草稿 → 已提交');
    expect(within(detail).queryByTestId('edit-materials')).toBeNull();
    expect(within(detail).queryByTestId('in-final')).toBeNull();
  });

  it('says 晋级决赛 once the project is in the final round; a missing application reads 未上传, without a count', async () => {
    mockGets({ '/prelim-doc/my': prelimFixture('APPROVED', { inFinal: true, application: null, applicationChars: null }) });
    renderRoute('/material-submission/detail');
    const detail = await screen.findByTestId('materials-detail');
    expect(within(detail).getByTestId('in-final').textContent).toContain('晋级决赛');
    expect(within(detail).queryByTestId('application-chars')).toBeNull();
    expect(detail.textContent).toContain('未上传');
    expect(detail.textContent).not.toContain('未上传--');
  });

  it('drops the 晋级决赛 banner once the final result is published: the result card takes its place', async () => {
    const final = {
      round: 'FINAL', published: true, version: 1, publishedAt: '2025-09-01T02:00:00.000Z', periodEndsAt: null, appealEndsAt: null,
      inPeriod: false, appealOpen: false, newsId: null, appeal: null,
      entry: { projectName: '医保智能审核', teamName: '数据治理实验室', orgName: '示例医院', track: 'SMART_SUPERVISION', rank: 1, score: 91.5, outcome: 'FIRST_PRIZE', award: '一等奖', scoreSummary: null },
    };
    mockGets({ '/prelim-doc/my': prelimFixture('APPROVED', { inFinal: true }), '/results/mine': { now: '2025-09-02T02:00:00.000Z', rounds: [final] } });
    renderRoute('/material-submission/detail');
    const detail = await screen.findByTestId('materials-detail');
    await within(detail).findByTestId('result-cards');
    expect(within(detail).queryByTestId('in-final')).toBeNull();
  });
});
