/** 申诉处理 with mocked answers (docs/api-results.md, "Admin: appeals"). */
import { answerConfirm } from '../../../test/confirm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { RESULTS_MSG, type AppealDetail } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { ID, SLOW, appealDetail, appealRow, callsTo, expertRow, mockGet, page } from './results-fixtures';

const APPEAL = ID(901);
const DETAIL = `/admin/appeals/${APPEAL}`;


describe('申诉处理', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('list: filters come from and go to the URL, due dates with the overdue tag, a row opens its detail', async () => {
    const get = mockGet(superAdmin(), {
      '/admin/appeals': page([appealRow(1, { overdue: true }), appealRow(2, { status: 'REJECTED', decidedAt: '2025-09-19T08:00:00Z', decidedBy: '运营一号' })]),
      [DETAIL]: appealDetail(1),
    });
    const { router } = renderRoute('/admin/results/appeals?round=FINAL&overdue=true');
    const list = await screen.findByTestId('appeals-page', {}, SLOW);
    await waitFor(() => expect(within(list).getByText('医保项目1')).toBeTruthy());
    expect(callsTo(get, '/admin/appeals')[0]![1]).toEqual({ params: { round: 'FINAL', overdue: 'true', page: 1, size: 10 } });
    // The form shows the filters of the link.
    const form = within(list).getByTestId('kit-search-form');
    expect(within(form).getByText('决赛')).toBeTruthy();
    expect(within(form).getByText('仅看已超期')).toBeTruthy();
    const rowOf = (name: string) => within(list).getByText(name).closest('tr')!;
    expect(within(rowOf('医保项目1')).getByTestId('overdue-tag').textContent).toBe('已超期');
    expect(within(rowOf('医保项目1')).getByTestId('appeal-status').textContent).toBe('待处理');
    expect(within(rowOf('医保项目1')).getByTestId('appeal-open').textContent).toBe('处理');
    expect(within(rowOf('医保项目2')).queryByTestId('overdue-tag')).toBeNull();
    expect(within(rowOf('医保项目2')).getByTestId('appeal-open').textContent).toBe('详情');

    fireEvent.change(within(list).getByLabelText('关键字'), { target: { value: '复核' } });
    fireEvent.click(within(list).getByRole('button', { name: '查询' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('keyword')).toBe('复核'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('round')).toBe('FINAL');
    expect(params.get('overdue')).toBe('true');
    await waitFor(() => expect(callsTo(get, '/admin/appeals').at(-1)![1]).toEqual({ params: { round: 'FINAL', overdue: 'true', keyword: '复核', page: 1, size: 10 } }));

    fireEvent.click(within(rowOf('医保项目1')).getByTestId('appeal-link'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/results/appeals/${APPEAL}`));
    const detail = await screen.findByTestId('appeal-detail-page', {}, SLOW);
    expect(within(detail).getByTestId('appeal-reason').textContent).toBe('评分有误，请复核1');
    expect(within(detail).getByText('评分说明.pdf')).toBeTruthy();
    expect(within(detail).getByTestId('appeal-history').textContent).toContain('张三');
    const lines = within(detail).getAllByRole('row').filter((r) => r.textContent?.includes('版'));
    expect(lines.map((r) => r.textContent)).toEqual(expect.arrayContaining([expect.stringContaining('申诉针对的第 1 版'), expect.stringContaining('当前版本')]));
  });

  it('驳回 needs a reply and sends the row version; a STALE answer offers to read the appeal again', async () => {
    let reads = 0;
    mockGet(superAdmin(), {
      [DETAIL]: () => {
        reads += 1;
        return reads === 1 ? appealDetail(1) : appealDetail(1, { status: 'REJECTED', rowVersion: 2, reply: '另一位管理员的答复', decidedBy: '运营二号', decidedAt: '2025-09-19T09:00:00Z' });
      },
    });
    const post = vi.spyOn(api, 'post').mockRejectedValue(refused('已被他人处理', { reason: 'STALE' }));
    renderRoute(`/admin/results/appeals/${APPEAL}`);
    const panel = await screen.findByTestId('decide-panel', {}, SLOW);
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    expect(await within(panel).findByText(RESULTS_MSG.appealReplyRequired)).toBeTruthy();
    fireEvent.change(within(panel).getByLabelText('答复意见'), { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    expect(await within(panel).findByText(RESULTS_MSG.appealReplyTooLong)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(panel).getByLabelText('答复意见'), { target: { value: ' 评分无误，维持原结果 ' } });
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`${DETAIL}/reject`, { reply: '评分无误，维持原结果', version: 1 }, { silent: true }));
    const stale = await screen.findByTestId('decide-stale');
    expect(stale.textContent).toContain('已被他人处理');
    fireEvent.click(within(stale).getByTestId('decide-reload'));
    // Read again: decided by someone else, so no panel, their reply shown.
    await waitFor(() => expect(screen.getByTestId('appeal-reply').textContent).toBe('另一位管理员的答复'));
    expect(screen.queryByTestId('decide-panel')).toBeNull();
    expect(screen.getByTestId('appeal-status').textContent).toBe('已驳回');
  });

  it('受理并复评: 追加专家 needs experts, sends mode and ids; the answer replaces the page', async () => {
    mockGet(superAdmin(), { [DETAIL]: appealDetail(1), '/admin/expert/list': page([expertRow(1), expertRow(2)]) });
    const accepted: AppealDetail = appealDetail(1, {
      status: 'ACCEPTED',
      rowVersion: 2,
      reply: '受理，追加专家复评',
      rereview: { mode: 'ADD_EXPERTS', expertIds: [ID(102)] },
      decidedAt: '2025-09-19T09:00:00Z',
      decidedBy: '超级管理员',
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(accepted));
    renderRoute(`/admin/results/appeals/${APPEAL}`);
    const panel = await screen.findByTestId('decide-panel', {}, SLOW);
    fireEvent.click(within(panel).getByLabelText('受理并复评'));
    fireEvent.click(await within(panel).findByLabelText('追加复评专家'));
    fireEvent.change(within(panel).getByLabelText('答复意见'), { target: { value: '受理，追加专家复评' } });
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    expect(await within(panel).findByText(RESULTS_MSG.appealExpertsRequired)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.mouseDown(within(panel).getByRole('combobox'));
    await waitFor(() => expect(screen.getAllByTestId('expert-option')).toHaveLength(2));
    fireEvent.click(screen.getAllByTestId('expert-option')[1]!);
    // Irreversible: it asks first, saying what happens; 取消 sends nothing.
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    await answerConfirm('受理后，将为该项目增加 1 位复评专家；答复将发送给参赛团队。此操作不可撤销。', '取消');
    await waitFor(() => expect((within(panel).getByTestId('decide-submit') as HTMLButtonElement).disabled).toBe(false));
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    await answerConfirm(/将为该项目增加 1 位复评专家/, '确认受理并复评');
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`${DETAIL}/accept`, { reply: '受理，追加专家复评', version: 1, mode: 'ADD_EXPERTS', expertIds: [ID(102)] }, { silent: true }),
    );
    expect(await screen.findByText(RESULTS_MSG.appealAccepted)).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('appeal-status').textContent).toBe('复评中'));
    expect(screen.queryByTestId('decide-panel')).toBeNull();
    expect(screen.getByTestId('detail-section-decision').textContent).toContain('追加 1 位复评专家');
  });

  it('退回全部评分 sends no experts; a refusal of the review module stays in the panel', async () => {
    mockGet(superAdmin(), { [DETAIL]: appealDetail(1) });
    const post = vi.spyOn(api, 'post').mockRejectedValue(refused(RESULTS_MSG.appealReviewClosed, { reason: 'REVIEW_CLOSED' }));
    renderRoute(`/admin/results/appeals/${APPEAL}`);
    const panel = await screen.findByTestId('decide-panel', {}, SLOW);
    fireEvent.click(within(panel).getByLabelText('受理并复评'));
    fireEvent.change(within(panel).getByLabelText('答复意见'), { target: { value: '受理' } });
    fireEvent.click(within(panel).getByTestId('decide-submit'));
    await answerConfirm('受理后，该项目已提交的全部评分将被退回，由原评审专家重新评分；答复将发送给参赛团队。此操作不可撤销。', '确认受理并复评');
    await waitFor(() => expect(post).toHaveBeenCalledWith(`${DETAIL}/accept`, { reply: '受理', version: 1, mode: 'RETURN_SCORES', expertIds: [] }, { silent: true }));
    expect((await within(panel).findByTestId('results-refusal')).textContent).toContain(RESULTS_MSG.appealReviewClosed);
    expect(screen.getByTestId('appeal-status').textContent).toBe('待处理');
  });

  it('without appeal:decide the detail only reads', async () => {
    mockGet(operator(['results'], []), { [DETAIL]: appealDetail(1) });
    renderRoute(`/admin/results/appeals/${APPEAL}`);
    await screen.findByTestId('appeal-detail-page', {}, SLOW);
    expect(screen.getByTestId('appeal-reason')).toBeTruthy();
    expect(screen.queryByTestId('decide-panel')).toBeNull();
  });
});
